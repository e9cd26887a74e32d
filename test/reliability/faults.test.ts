import { describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../../src/sandbox/faults/rules.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { faults, figures, ledgerMark, wire } from './helpers.js';

/** The control surface takes JSON only. */
const JSON_BODY = { 'content-type': 'application/json' };

/** The fault layer itself, on the wire: what each kind does, that before-faults never reach a handler. */
const sb = useSandbox({ seed: 9, credits: 100 });
const auth = (): Record<string, string> => ({
  authorization: `Bearer ${sb.get().apiKey}`,
  'content-type': 'application/json',
});
const credits = (): Promise<Awaited<ReturnType<typeof wire>>> =>
  wire(`${sb.get().url}/public/v1/accounts/credits/`, { headers: auth() });
const search = (): Promise<Awaited<ReturnType<typeof wire>>> =>
  wire(`${sb.get().url}/public/v1/discovery/`, {
    method: 'POST',
    headers: auth(),
    body: JSON.stringify({ platform: 'instagram', paging: { limit: 3, page: 0 }, filters: {} }),
  });

describe('fault specs', () => {
  it('reads the text form: kind, argument, method, path, settings', () => {
    expect(
      parseFaultSpec(
        '503 GET /public/v1/accounts/* count=2; delay:150 p=0.5; 429:none POST; 429:7 after=1; expire:100',
      ),
    ).toEqual([
      { kind: '503', method: 'GET', path: '/public/v1/accounts/*', target: 'api', count: 2 },
      { kind: 'delay', method: '*', path: '*', target: 'api', ms: 150, p: 0.5 },
      { kind: '429', method: 'POST', path: '*', target: 'api', retryAfter: null },
      { kind: '429', method: '*', path: '*', target: 'api', retryAfter: 7, after: 1 },
      { kind: 'expire', method: '*', path: '*', target: 'files', bytes: 100 },
    ]);
    // The help's own example: a `*` after the method is the path, it does not widen the rule to every method.
    expect(parseFaultSpec('503 GET * p=0.2')).toEqual([
      { kind: '503', method: 'GET', path: '*', target: 'api', p: 0.2 },
    ]);
    expect(parseFaultSpec('503 * GET')[0]).toMatchObject({ method: 'GET' });
    expect(parseFaultSpec('[{"kind":"drop-after","path":"/public/v1/discovery/","count":1}]')[0]).toMatchObject({
      kind: 'drop-after',
      path: '/public/v1/discovery/',
    });
  });

  it.each([
    ['explode', /unknown kind 'explode'/],
    ['503 FETCH', /cannot read 'FETCH'/],
    ['503 p=2', /p must be a probability/],
    ['503 count=-1', /count must be a non-negative integer/],
    ['503 colour=red', /unknown setting 'colour'/],
    ['500:3', /takes no ':3'/],
    ['drop-before ~(', /regular expressions are not accepted; use a path glob/],
    ['[{"kind": 503', /not valid JSON/],
  ])('refuses %j with a message naming the problem', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  it('probabilistic rules are deterministic for a seed', async () => {
    const pattern = async (): Promise<string> => {
      const s = await startSandbox({ port: 0, seed: 5, faults: '503 GET /public/v1/accounts/* p=0.5' });
      const auth5 = { authorization: `Bearer ${s.apiKey}` };
      let out = '';
      for (let i = 0; i < 12; i++)
        out += (await wire(`${s.url}/public/v1/accounts/credits/`, { headers: auth5 })).status === 503 ? 'x' : '.';
      await s.close();
      return out;
    };
    const first = await pattern();
    expect(first).toMatch(/x/);
    expect(first).toMatch(/\./);
    expect(await pattern()).toBe(first);
  });
});

describe('fault kinds on the wire', () => {
  it.each([
    ['500', 500, /server error/],
    ['502', 502, /Bad Gateway/],
    ['503', 503, /temporarily unavailable/],
    ['504', 504, /Gateway Time-out/],
    ['429:3', 429, /"retry_after":3/],
    ['429:none', 429, /^\{"detail":"Request was throttled."\}$/],
  ])('%s answers before the handler: nothing charged', async (kind, status, body) => {
    faults(sb.get(), `${kind} POST /public/v1/discovery/ count=1`);
    const mark = ledgerMark(sb.get());
    const res = await search();
    expect(res.status).toBe(status);
    expect(res.body).toMatch(body);
    expect(mark.since().count).toBe(0);
    expect((await search()).status).toBe(200); // count=1: the next one goes through
    expect(mark.since().count).toBe(1);
    expect(figures(sb.get()).injected).toEqual({ [kind.split(':')[0] as string]: 1 });
  });

  it('drop-before hangs up without processing; drop-after hangs up after charging', async () => {
    faults(sb.get(), 'drop-before POST /public/v1/discovery/ count=1');
    let mark = ledgerMark(sb.get());
    expect((await search()).status).toBeUndefined();
    expect(mark.since().count).toBe(0);

    faults(sb.get(), 'drop-after POST /public/v1/discovery/ count=1');
    mark = ledgerMark(sb.get());
    const lost = await search();
    expect(lost.status).toBeUndefined();
    expect(lost.error).toBeDefined();
    expect(mark.since().count).toBe(1);
    expect(figures(sb.get()).charged_then_lost).toBe(1);
  });

  it('truncate cuts the body short, malformed keeps the length but breaks the JSON, trickle arrives whole', async () => {
    faults(sb.get(), 'truncate:10 GET /public/v1/accounts/credits/ count=1');
    const cut = await credits();
    expect(cut.body.length).toBeLessThanOrEqual(10);
    expect(cut.error).toBeDefined();

    faults(sb.get(), 'malformed GET count=1');
    const bad = await credits();
    expect(bad.status).toBe(200);
    expect(() => JSON.parse(bad.body)).toThrow();
    expect(bad.body.startsWith('{"credits_available"')).toBe(true);

    faults(sb.get(), 'trickle:5 GET count=1; delay:5 GET count=1');
    expect(JSON.parse((await credits()).body)).toHaveProperty('credits_available');
    expect(JSON.parse((await credits()).body)).toHaveProperty('credits_available');
    expect(figures(sb.get()).injected).toEqual({ trickle: 1, delay: 1 });
  });

  it('after=N lets N matches through; the control surface is never faulted', async () => {
    faults(sb.get(), '503 * * after=2 count=1');
    const statuses: (number | undefined)[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await credits()).status);
    expect(statuses).toEqual([200, 200, 503, 200]);
    expect((await wire(`${sb.get().url}/_sandbox/ledger`)).status).toBe(200);
  });

  it('POST /_sandbox/faults sets rules at run time, GET reports counts, DELETE clears', async () => {
    faults(sb.get(), '');
    const set = await wire(`${sb.get().url}/_sandbox/faults`, {
      method: 'POST',
      headers: JSON_BODY,
      body: JSON.stringify({ spec: '504 GET /public/v1/accounts/* count=1', reset: true }),
    });
    expect(set.status).toBe(200);
    expect((await credits()).status).toBe(504);
    const report = JSON.parse((await wire(`${sb.get().url}/_sandbox/faults`)).body);
    expect(report).toMatchObject({
      total: 1,
      injected: { '504': 1 },
      rules: [{ spec: '504 GET /public/v1/accounts/* count=1', injected: 1 }],
    });
    const refused = await wire(`${sb.get().url}/_sandbox/faults`, {
      method: 'POST',
      headers: JSON_BODY,
      body: '{"spec":"boom"}',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("unknown kind 'boom'");
    const cleared = JSON.parse(
      (await wire(`${sb.get().url}/_sandbox/faults`, { method: 'DELETE', headers: JSON_BODY })).body,
    );
    expect(cleared.rules).toEqual([]);
    expect(cleared.total).toBe(1);
  });
});

describe('creators sandbox --faults', () => {
  it('refuses a bad spec with exit 2 before starting', async () => {
    const res = await runCli(['sandbox', '--faults', '503 GET count=x']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Invalid --faults: faults rule 1: count must be a non-negative integer/);
  });
});
