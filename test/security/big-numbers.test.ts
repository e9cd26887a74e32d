/**
 * Numbers a double cannot hold (a TikTok user id beyond 2^53, `1e400`) pass through every format exactly:
 * parsed losslessly by the HTTP core, written back as their digits by every printer.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { mockApi, JSON_HEADERS } from '../helpers/mock-api.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 7 });

/** A TikTok creator of the sandbox and the 19-digit user id the sandbox sends for it as a bare JSON number. */
async function tiktokCreator(): Promise<{ handle: string; userid: string }> {
  const res = await fetch(`${sb.get().url}/public/v1/creators/enrich/handle/raw/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.get().apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ platform: 'tiktok', handle: await firstTiktokHandle() }),
  });
  const text = await res.text();
  const userid = /"userid":(\d+)/.exec(text)?.[1];
  const handle = /"username":"([^"]+)"/.exec(text)?.[1];
  if (!userid || !handle) throw new Error(`no numeric userid in ${text.slice(0, 200)}`);
  return { handle, userid };
}

async function firstTiktokHandle(): Promise<string> {
  const r = await runCli(['search', '--platform', 'tiktok', '--limit', '1', '--json'], { env: sandboxEnv(sb.get()) });
  return r.json<{ profile: { username: string } }[]>()[0]?.profile.username as string;
}

describe('a user id beyond 2^53 from the sandbox', () => {
  it('is sent by the sandbox as a bare JSON number that a double would round', async () => {
    const { userid } = await tiktokCreator();
    expect(userid).toMatch(/^\d{19}$/);
    expect(BigInt(userid) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(String(Number(userid))).not.toBe(userid);
  });

  it('round-trips exactly through json, jsonl, csv, tsv and the terminal table', async () => {
    const { handle, userid } = await tiktokCreator();
    const env = sandboxEnv(sb.get());
    const base = ['enrich', 'handle', handle, '--platform', 'tiktok', '--mode', 'raw'];

    const json = await runCli([...base, '--format', 'json'], { env });
    expect(json.code).toBe(0);
    expect(json.stdout).toContain(`"userid": ${userid},`);

    const jsonl = await runCli([...base, '--format', 'jsonl', '--fields', 'result.tiktok.userid'], { env });
    expect(jsonl.stdout).toBe(`{"result":{"tiktok":{"userid":${userid}}}}\n`);

    const csv = await runCli([...base, '--format', 'csv'], { env });
    const rows = parseCsv(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows[0]?.['result.tiktok.userid']).toBe(userid);
    // The whole result kept as JSON in its cell holds the number exactly too.
    expect(rows[0]?.result_json).toContain(`"userid":${userid},`);

    const tsv = await runCli([...base, '--format', 'tsv', '--fields', 'handle,result.tiktok.userid'], { env });
    expect(tsv.stdout.trim().split('\n')[1]?.split('\t')).toEqual([handle, userid]);

    const table = await runCli([...base, '--fields', 'result.tiktok.userid'], { env, tty: true, columns: 120 });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(userid);
  });
});

describe('numbers from a server that no double holds', () => {
  const body = '{"data": [{"id": 6789012345678901234, "followers": 1e400, "share": 0.12345678901234567890, "n": 42}]}';

  it('keeps 1e400 and a 20-digit fraction as their text in json and csv; ordinary numbers are unchanged', async () => {
    for (const format of ['json', 'csv'] as const) {
      const { agent, pool, env } = mockApi();
      pool.intercept({ path: '/public/v1/things/', method: 'GET' }).reply(200, body, JSON_HEADERS);
      const r = await runCli(['api', '/things', '--format', format], { env, dispatcher: agent });
      expect(r.code, r.stderr).toBe(0);
      if (format === 'json') {
        expect(r.stdout).toContain('"id": 6789012345678901234');
        expect(r.stdout).toContain('"followers": 1e400');
        expect(r.stdout).toContain('"share": 0.12345678901234567890');
        expect(r.stdout).toContain('"n": 42');
        expect(r.stdout).not.toMatch(/null|Infinity/);
      } else {
        const rows = parseCsv(r.stdout, { columns: true }) as Record<string, string>[];
        expect(rows).toEqual([
          { id: '6789012345678901234', followers: '1e400', share: '0.12345678901234567890', n: '42' },
        ]);
      }
    }
  });

  it('shows the exact digits in a terminal table, where counts are otherwise humanised', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/things/', method: 'GET' }).reply(200, body, JSON_HEADERS);
    const r = await runCli(['api', '/things'], { env, dispatcher: agent, tty: true, columns: 160 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('6789012345678901234');
    expect(r.stdout).toContain('1e400');
    expect(r.stdout).not.toContain('Infinity');
  });
});
