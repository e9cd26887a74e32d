/** The sandbox validates filters against the shared catalogue: a string where a list is required is a 400. */
import { describe, expect, it } from 'vitest';
import { FILTER_TYPES } from '../../src/contract/filters.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 42, credits: 100 });

async function discovery(filters: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const s = sb.get();
  const res = await fetch(`${s.url}/public/v1/discovery/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.apiKey}` },
    body: JSON.stringify({ platform: 'instagram', paging: { limit: 1, page: 0 }, filters }),
  });
  return { status: res.status, body: await res.json() };
}

describe('sandbox filter types', () => {
  it('rejects a string where the catalogue types a list, in DRF ListField words, without charging', async () => {
    const before = sb.get().state.ledger.usedMilli;
    const res = await discovery({ location: 'Germany' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { filters: { location: ['Expected a list of items but got type "str".'] } } });
    const nested = await discovery({ audience: { brands: 'nike' } });
    expect(nested.status).toBe(400);
    expect(nested.body.error.filters.audience.brands[0]).toMatch(/Expected a list of items/);
    expect(sb.get().state.ledger.usedMilli).toBe(before);
  });

  it('takes the one-item list, and the CLI sends --filter location=Germany as one', async () => {
    expect((await discovery({ location: ['Germany'] })).status).toBe(200);
    const res = await runCli(
      ['search', '--platform', 'instagram', '--filter', 'location=Germany', '--limit', '2', '--json'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code).toBe(0);
    expect(res.json<unknown[]>().length).toBeGreaterThan(0);
  });

  it("ignores a sub-key it does not read (minn, MCP's client-side gte) as the service does: the results are unfiltered and charged", async () => {
    const all = (await discovery({})).body.total as number;
    const filtered = (await discovery({ number_of_followers: { min: 500_000 } })).body.total as number;
    expect(filtered).toBeLessThan(all);
    const before = sb.get().state.ledger.usedMilli;
    for (const range of [{ minn: 500_000 }, { gte: 500_000 }]) {
      const res = await discovery({ number_of_followers: range });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(all);
    }
    expect(sb.get().state.ledger.usedMilli - before).toBe(20);
  });

  it('the catalogue types the lists the issue names', () => {
    for (const key of ['location', 'hashtags', 'topics', 'games_played', 'audience.location'])
      expect(FILTER_TYPES[key]).toMatch(/list/);
  });
});
