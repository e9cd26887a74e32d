/**
 * A 200 JSON answer of the wrong shape is not a success. Behind a gateway answering
 * `{"message": "Internal error"}` with 200, `search` printed `[]` (a paid route), `enrich handle` said
 * "No data found (not charged)", bulk enrichment wrote every row `not_found` and `credits` showed
 * `null`, all with exit 0. Every answer is checked against its endpoint's schema (src/contract/
 * responses.ts): a mismatch is `malformed_response`, exit 1, "may have been charged" on a POST.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { tempDir, tempFile } from '../../helpers/temp.js';

const GATEWAY = { message: 'Internal error' };

/** A gateway that answers every request with 200 and the same JSON; counts what it was sent. */
function gateway(body: unknown = GATEWAY) {
  const api = mockApi({ recorder: true });
  const sent: string[] = [];
  api.pool
    .intercept({ path: () => true, method: () => true })
    .reply((opts) => {
      sent.push(`${opts.method} ${opts.path}`);
      return { statusCode: 200, data: JSON.stringify(body), responseOptions: JSON_HEADERS };
    })
    .persist();
  return { ...api, sent };
}

type ErrorJson = {
  error: { code: string; message: string; status: number | null; maybe_charged?: boolean; hint?: string };
};

describe('a 200 JSON answer of the wrong shape', () => {
  it('credits (a free GET): retried, then exit 1 malformed_response naming what is missing; no null balance printed', async () => {
    const api = gateway();
    const res = await runCli(['credits', '--json', '--retries', '1'], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    const { error } = res.errorJson() as ErrorJson;
    expect(error).toMatchObject({ code: 'malformed_response', status: 200 });
    expect(error.maybe_charged).toBeUndefined();
    expect(error.message).toBe(
      "The server's answer to GET /public/v1/accounts/credits/ does not have the endpoint's shape (HTTP 200): credits_available is missing (nor any other documented form).",
    );
    expect(api.sent).toEqual(['GET /public/v1/accounts/credits/', 'GET /public/v1/accounts/credits/']);
  });

  it('search (a paid POST): exit 1, no empty result printed, may have been charged, not sent again', async () => {
    const api = gateway();
    const res = await runCli(['search', '--platform', 'instagram', '--limit', '5', '--json'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    const { error } = res.errorJson() as ErrorJson;
    expect(error).toMatchObject({ code: 'malformed_response', status: 200, maybe_charged: true });
    expect(error.message).toContain('POST /public/v1/discovery/');
    expect(error.message).toContain('accounts is missing');
    expect(api.sent).toEqual(['POST /public/v1/discovery/']);
  });

  it('enrich handle: exit 1, never "No data found (not charged)"', async () => {
    const api = gateway();
    const res = await runCli(['enrich', 'handle', 'nasa', '--platform', 'instagram', '--mode', 'raw'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(1);
    expect(res.combined).not.toMatch(/no data found|not charged/i);
    expect(res.stderr).toMatch(
      /^error: The server's answer to POST \/public\/v1\/creators\/enrich\/handle\/raw\/ does not have the endpoint's shape \(HTTP 200\): result is missing/,
    );
    expect(res.stderr).toContain('The request may have been processed (and charged)');
  });

  it('bulk enrichment: the run stops at the first such answer (exit 1); no row is written as not_found', async () => {
    const api = gateway();
    const { path } = tempFile('in.csv', 'handle\nann\nbob\ncid\ndee\n');
    const out = join(tempDir('creators-shape-'), 'out.csv');
    const res = await runCli(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        path,
        '--concurrency',
        '1',
        '-o',
        out,
      ],
      {
        env: api.env,
        dispatcher: api.agent,
      },
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('result is missing');
    expect(res.stderr).toContain('may have been processed (and charged)');
    expect(existsSync(out)).toBe(false);
    // One row's request, not four: every later one would have gone to the same gateway, each maybe charged.
    expect(api.sent).toEqual(['POST /public/v1/creators/enrich/handle/raw/']);
  });

  it('posts (a paid POST): exit 1 malformed_response, may have been charged', async () => {
    const api = gateway();
    const res = await runCli(['posts', 'noah_paws', '--platform', 'instagram', '--json'], {
      env: api.env,
      dispatcher: api.agent,
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect((res.errorJson() as ErrorJson).error).toMatchObject({ code: 'malformed_response', maybe_charged: true });
  });

  it('listening reads (subscriptions, campaigns, events, usage, an event): exit 1 malformed_response, nothing printed', async () => {
    for (const argv of [
      ['listening', 'subscriptions', 'list'],
      ['listening', 'campaigns', 'get', '7'],
      ['events', 'list'],
      ['events', 'get', '12'],
      ['listening', 'usage'],
    ]) {
      const api = gateway();
      const res = await runCli([...argv, '--json', '--retries', '0'], { env: api.env, dispatcher: api.agent });
      expect(res.code, argv.join(' ')).toBe(1);
      expect(res.stdout, argv.join(' ')).toBe('');
      expect((res.errorJson() as ErrorJson).error.code, argv.join(' ')).toBe('malformed_response');
    }
  });

  it('dictionaries, exclusion lists and API keys: exit 1 malformed_response', async () => {
    for (const argv of [
      ['dict', 'languages'],
      ['exclusions', 'list'],
      ['exclusions', 'entries', '3'],
      ['keys', 'list'],
    ]) {
      const api = gateway();
      const res = await runCli([...argv, '--json', '--retries', '0'], { env: api.env, dispatcher: api.agent });
      expect(res.code, argv.join(' ')).toBe(1);
      expect((res.errorJson() as ErrorJson).error.code, argv.join(' ')).toBe('malformed_response');
    }
  });

  it('an answer of the wrong shape is not kept in the store: the next run buys the record', async () => {
    const configDir = tempConfigDir();
    const bad = gateway();
    const first = await runCli(['enrich', 'handle', 'nasa', '--platform', 'instagram', '--mode', 'raw', '--json'], {
      env: bad.env,
      dispatcher: bad.agent,
      configDir,
    });
    expect(first.code).toBe(1);
    const good = gateway({ result: { instagram: { username: 'nasa', follower_count: 5 } }, credits_cost: 0.03 });
    const second = await runCli(['enrich', 'handle', 'nasa', '--platform', 'instagram', '--mode', 'raw', '--json'], {
      env: good.env,
      dispatcher: good.agent,
      configDir,
    });
    expect(second.code).toBe(0);
    expect(good.sent).toEqual(['POST /public/v1/creators/enrich/handle/raw/']);
    expect(second.json<{ result: { instagram: { username: string } } }>().result.instagram.username).toBe('nasa');
  });

  it('an answer of the wrong shape held in the store (kept before answers were checked) is refused too; --max-age 0 buys afresh', async () => {
    const configDir = tempConfigDir();
    const argv = ['enrich', 'handle', 'nasa', '--platform', 'instagram', '--mode', 'raw', '--json'];
    const good = gateway({ result: { instagram: { username: 'nasa', follower_count: 5 } }, credits_cost: 0.03 });
    expect((await runCli(argv, { env: good.env, dispatcher: good.agent, configDir })).code).toBe(0);
    // What an older version kept from a gateway's answer.
    const { default: Database } = (await import('libsql')) as unknown as {
      default: new (f: string) => { exec(sql: string): void; close(): void };
    };
    const db = new Database(join(configDir, 'store', 'default.db'));
    db.exec(`UPDATE answers SET body = '{"message":"Internal error"}'`);
    db.close();
    const again = await runCli(argv, { env: good.env, dispatcher: good.agent, configDir });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    const { error } = again.errorJson() as ErrorJson;
    expect(error.code).toBe('stored_answer_damaged');
    expect(error.message).toMatch(
      /^The store's answer for instagram:nasa \(key [0-9a-f]{12}, bought .+\) is damaged: not the endpoint's shape \(result is missing.*\); nothing was bought\. To buy it again, run `creators store forget instagram:nasa`, or the command with --max-age 0\.$/,
    );
    expect(error.maybe_charged).toBeUndefined();
    expect(good.sent).toHaveLength(1);
    const fresh = await runCli([...argv, '--max-age', '0'], { env: good.env, dispatcher: good.agent, configDir });
    expect(fresh.code).toBe(0);
    expect(good.sent).toHaveLength(2);
  });

  it('creators api is the escape hatch: it prints any JSON as it came', async () => {
    const api = gateway();
    const res = await runCli(['api', 'accounts/credits'], { env: api.env, dispatcher: api.agent });
    expect(res.code).toBe(0);
    expect(res.json()).toEqual(GATEWAY);
  });
});
