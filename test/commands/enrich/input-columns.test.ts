import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { tempFile } from './helpers.js';

// Input columns named like the run's own fields, an integer-like name (a JS object would put it first),
// quotes, a line break and a C1 control (JSON escapes it as \u0085).
const INPUT =
  'status,error,result,credits_cost,2024,handle,note\n' +
  'was ok,old error,old result,9,year,noah_paws,"a ""quoted"" note"\n' +
  'S2,E2,R2,C2,Y2,missing_x,"line\nbreak \u0085"\n';

const FOUND = { instagram: { username: 'noah_paws', follower_count: 12 } };

/** A MockAgent answering `noah_paws` found (0.03) and anything else not found (free). */
function api(times = 1) {
  const a = mockApi();
  a.pool
    .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
    .reply(
      200,
      (opts) => {
        const { handle } = JSON.parse(String(opts.body)) as { handle: string };
        return handle === 'noah_paws'
          ? { result: FOUND, credits_cost: 0.03 }
          : { result: null, credits_cost: 0, status: 'not_found' };
      },
      JSON_HEADERS,
    )
    .times(times);
  return a;
}

const run = (path: string, extra: string[], a = api(2), more: { configDir?: string; cwd?: string } = {}) =>
  runCli(
    ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', path, '--concurrency', '1', ...extra],
    { env: a.env, dispatcher: a.agent, ...more },
  );

// The input objects as they must appear, keys in input order (compact: jsonl).
const INPUT_1 =
  '{"status":"was ok","error":"old error","result":"old result","credits_cost":"9","2024":"year","handle":"noah_paws","note":"a \\"quoted\\" note"}';
const INPUT_2 =
  '{"status":"S2","error":"E2","result":"R2","credits_cost":"C2","2024":"Y2","handle":"missing_x","note":"line\\nbreak \\u0085"}';

describe('enrich --input: json and jsonl keep every input column under input', () => {
  it('jsonl: the input row under `input` with every column in input order, the run fields beside it', async () => {
    const { path } = tempFile('in.csv', INPUT);
    const res = await run(path, ['--format', 'jsonl']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      `{"input":${INPUT_1},"result":${JSON.stringify(FOUND)},"credits_cost":0.03,"status":"ok","error":null,"source":"api"}`,
      `{"input":${INPUT_2},"result":null,"credits_cost":0,"status":"not_found","error":null,"source":"api"}`,
    ]);
    // No raw C1 control reaches the output; parsed back, the data is exactly the input.
    expect(res.stdout).not.toMatch(/\u0085/);
    const parsed = lines.map((l) => JSON.parse(l) as { input: Record<string, string> });
    expect(parsed[1]!.input.note).toBe('line\nbreak \u0085');
  });

  it('json: one pretty array, each element as jsonText would indent it, input keys in input order', async () => {
    const { path } = tempFile('in.csv', INPUT);
    const res = await run(path, ['--json']);
    expect(res.code).toBe(0);
    expect(
      res.stdout.startsWith(
        '[\n  {\n    "input": {\n      "status": "was ok",\n      "error": "old error",\n      "result": "old result",\n' +
          '      "credits_cost": "9",\n      "2024": "year",\n      "handle": "noah_paws",\n      "note": "a \\"quoted\\" note"\n    },\n' +
          '    "result": {\n      "instagram": {\n        "username": "noah_paws",\n        "follower_count": 12\n      }\n    },\n' +
          '    "credits_cost": 0.03,\n    "status": "ok",\n    "error": null,\n    "source": "api"\n  },\n  {\n    "input": {\n      "status": "S2",\n',
      ),
    ).toBe(true);
    expect(
      res.stdout.endsWith(
        '    "credits_cost": 0,\n    "status": "not_found",\n    "error": null,\n    "source": "api"\n  }\n]\n',
      ),
    ).toBe(true);
    expect(res.json()).toEqual([
      { input: JSON.parse(INPUT_1), result: FOUND, credits_cost: 0.03, status: 'ok', error: null, source: 'api' },
      { input: JSON.parse(INPUT_2), result: null, credits_cost: 0, status: 'not_found', error: null, source: 'api' },
    ]);
  });

  it('csv keeps its layout byte for byte: input columns, then the result columns, then the run columns', async () => {
    const { path } = tempFile('in.csv', INPUT);
    const res = await run(path, ['--format', 'csv']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      'status,error,result,credits_cost,2024,handle,note,result.instagram.username,result.instagram.userid,result.instagram.full_name,' +
        'result.instagram.follower_count,result.instagram.engagement_percent,result.email,result_json,credits_cost,status,error,source\n' +
        'was ok,old error,old result,9,year,noah_paws,"a ""quoted"" note",noah_paws,,,12,,,' +
        '"{""instagram"":{""username"":""noah_paws"",""follower_count"":12}}",0.03,ok,,api\n' +
        'S2,E2,R2,C2,Y2,missing_x,"line\nbreak \u0085",,,,,,,,0,not_found,,api\n',
    );
  });

  it('repeated header names come out renamed and unique under input (never a name the file has), in input order', async () => {
    const { path } = tempFile('in.csv', 'note,handle,note,status,note_2\nx,noah_paws,y,z,w\n');
    const res = await run(path, ['--format', 'jsonl'], api(1));
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      `{"input":{"note":"x","handle":"noah_paws","note_3":"y","status":"z","note_2":"w"},"result":${JSON.stringify(FOUND)},"credits_cost":0.03,"status":"ok","error":null,"source":"api"}\n`,
    );
  });

  it('--fields picks input columns as input.<name> (in the order given) and the run fields by their paths', async () => {
    const { path } = tempFile('in.csv', INPUT);
    const res = await run(path, [
      '--format',
      'jsonl',
      '--fields',
      'status,input.2024,input.status,result.instagram.username,input.nope',
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout.trimEnd().split('\n')).toEqual([
      '{"status":"ok","input":{"2024":"year","status":"was ok"},"result":{"instagram":{"username":"noah_paws"}}}',
      '{"status":"not_found","input":{"2024":"Y2","status":"S2"}}',
    ]);
    const whole = await run(path, ['--format', 'jsonl', '--fields', 'input,credits_cost']);
    expect(whole.stdout.trimEnd().split('\n')).toEqual([
      `{"input":${INPUT_1},"credits_cost":0.03}`,
      `{"input":${INPUT_2},"credits_cost":0}`,
    ]);
  });

  it("values given as arguments keep their shape: one record per value, like a single value's", async () => {
    const a = api(2);
    const res = await runCli(
      [
        'enrich',
        'handle',
        'noah_paws',
        'missing_x',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--concurrency',
        '1',
        '--format',
        'jsonl',
      ],
      { env: a.env, dispatcher: a.agent },
    );
    expect(res.code).toBe(0);
    expect(res.stdout.trimEnd().split('\n')).toEqual([
      `{"handle":"noah_paws","result":${JSON.stringify(FOUND)},"credits_cost":0.03,"status":"ok","error":null,"source":"api"}`,
      '{"handle":"missing_x","result":null,"credits_cost":0,"status":"not_found","error":null,"source":"api"}',
    ]);
    const one = api(1);
    const single = await runCli(
      ['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--mode', 'raw', '--json'],
      { env: one.env, dispatcher: one.agent },
    );
    expect(single.code).toBe(0);
    expect(single.stdout).toBe(
      `${JSON.stringify({ handle: 'noah_paws', result: FOUND, credits_cost: 0.03, status: 'ok', error: null, source: 'api' }, null, 2)}\n`,
    );
  });

  it('a re-run takes the rows the store holds (source store, 0 credits) and sends only the failed one, in the same shape', async () => {
    const configDir = tempConfigDir();
    const { dir, path } = tempFile('in.csv', INPUT);
    // First run: the found row is answered and kept in the store; the other fails (a free error).
    const first = mockApi();
    first.pool
      .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
      .reply(200, { result: FOUND, credits_cost: 0.03 }, JSON_HEADERS);
    first.pool
      .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
      .reply(400, { detail: 'bad handle' }, JSON_HEADERS);
    const out = join(dir, 'out.jsonl');
    const failed = await run(path, ['-o', out], first, { configDir, cwd: dir });
    expect(failed.code).toBe(3);
    // Second run, to another file: only the failed row is sent (the mock answers one request, and no more).
    const again = api(1);
    const res = await run(path, ['-o', join(dir, 'again.jsonl')], again, { configDir, cwd: dir });
    expect(res.code).toBe(0);
    again.agent.assertNoPendingInterceptors();
    expect(res.stderr).toMatch(/1 of 2 rows from the store \(bought within 14 days\): 0 credits/);
    expect(readFileSync(join(dir, 'again.jsonl'), 'utf8').trimEnd().split('\n')).toEqual([
      `{"input":${INPUT_1},"result":${JSON.stringify(FOUND)},"credits_cost":0,"status":"ok","error":null,"source":"store"}`,
      `{"input":${INPUT_2},"result":null,"credits_cost":0,"status":"not_found","error":null,"source":"api"}`,
    ]);
  });
});
