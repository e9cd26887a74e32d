import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseBaseUrl } from '../../src/app/factory/config.js';
import { openSqliteStore } from '../../src/lib/store/sqlite.js';
import type { StoredAnswer } from '../../src/lib/store/types.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { runCli, tempConfigDir, type RunOptions } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { tempFile } from '../helpers/temp.js';
import { ledgerMark } from '../reliability/helpers.js';

/**
 * `--skip-bought` (and the `skip-bought` setting): creators already bought on the platform within the
 * creator window (a Discovery page or an enrichment, in this profile's store) join `exclude_handles`,
 * the most recently bought first, up to the API's 10,000; the rest are counted in a warning.
 */

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Account = { profile: { username: string } };
interface PlanOut {
  body: { filters: { exclude_handles?: string[] } | null; paging: { limit: number; page: number } };
  worst_case_credits: number;
}

const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-22T10:00:00Z');

/** A sandbox, a store and a clock of their own, shared by the runs of one test. */
async function world() {
  const sandbox = await startSandbox({ port: 0, seed: 43 });
  open.push(sandbox);
  const configDir = tempConfigDir();
  const clock = { t: T0 };
  const run = (argv: string[], extra: RunOptions = {}) =>
    runCli(argv, { env: sandboxEnv(sandbox), configDir, now: () => clock.t, ...extra });
  return { sandbox, configDir, clock, run };
}

const handles = (json: string): string[] =>
  (JSON.parse(json) as Account[]).map((a) => a.profile.username.toLowerCase());
const SEARCH = ['search', '--platform', 'instagram'];

describe('search --skip-bought', () => {
  it('leaves out the creators of earlier pages and enrichments, the most recently bought first, and says how many', async () => {
    const w = await world();
    const page = handles((await w.run([...SEARCH, '--limit', '10', '--json'])).stdout);
    expect(page).toHaveLength(10);
    // A creator the first page did not have, enriched a day later.
    w.clock.t += DAY;
    const other = w.sandbox.state.creators
      .list('instagram')
      .map((c) => c.profile.username.toLowerCase())
      .find((h) => !page.includes(h))!;
    expect((await w.run(['enrich', 'handle', other, '--platform', 'instagram', '--json'])).code).toBe(0);

    const dry = await w.run([...SEARCH, '--limit', '10', '--skip-bought', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(dry.json<PlanOut>().body.filters?.exclude_handles).toEqual([other, ...[...page].sort()]);
    expect(dry.stderr).toContain('--skip-bought: leaving out 11 creators already bought on instagram within 14 days.');

    const mark = ledgerMark(w.sandbox);
    const res = await w.run([...SEARCH, '--limit', '10', '--skip-bought', '--json']);
    expect(res.code).toBe(0);
    const next = handles(res.stdout);
    expect(next).toHaveLength(10);
    expect(next.filter((h) => page.includes(h) || h === other)).toEqual([]);
    expect(mark.since()).toMatchObject({ count: 1, milli: 100 });
    expect(res.stderr).toContain('--skip-bought: leaving out 11 creators already bought on instagram within 14 days.');

    // Only the creator window counts: with --max-age 12h the page bought a day ago is not left out.
    const recent = await w.run([
      ...SEARCH,
      '--limit',
      '10',
      '--skip-bought',
      '--max-age',
      '12h',
      '--dry-run',
      '--json',
    ]);
    expect(recent.json<PlanOut>().body.filters?.exclude_handles).toEqual([...next].sort().concat(other).sort());
    expect(recent.stderr).toContain('leaving out 11 creators already bought on instagram within 12 hours.');
  });

  it('merges with --exclude-handles (given first, each once) and applies to similar', async () => {
    const w = await world();
    const page = handles((await w.run([...SEARCH, '--limit', '5', '--json'])).stdout);
    const file = tempFile('seen.txt', `someone_else\n${page[0]!.toUpperCase()}\n`).path;
    const res = await w.run([
      ...SEARCH,
      '--limit',
      '5',
      '--skip-bought',
      '--exclude-handles',
      file,
      '--dry-run',
      '--json',
    ]);
    const excluded = res.json<PlanOut>().body.filters?.exclude_handles;
    expect(excluded).toEqual(['someone_else', page[0]!.toUpperCase(), ...page.slice(1).sort()]);
    expect(res.stderr).toContain('leaving out 5 creators already bought');

    const seed = w.sandbox.state.creators.list('instagram')[100]!.profile.username;
    const similar = await w.run([
      'similar',
      seed,
      '--platform',
      'instagram',
      '--limit',
      '5',
      '--skip-bought',
      '--dry-run',
      '--json',
    ]);
    expect(similar.code).toBe(0);
    expect(similar.json<PlanOut>().body.filters?.exclude_handles).toEqual([...page].sort());
  });

  it('the skip-bought setting turns it on; --no-skip-bought turns it off for one run (the first page again, from the store)', async () => {
    const w = await world();
    const first = await w.run([...SEARCH, '--limit', '10', '--json']);
    expect((await w.run(['config', 'set', 'skip-bought', 'true'])).code).toBe(0);
    const on = await w.run([...SEARCH, '--limit', '10', '--dry-run', '--json']);
    expect(on.json<PlanOut>().body.filters?.exclude_handles).toHaveLength(10);
    expect(on.stderr).toContain('--skip-bought: leaving out 10 creators');

    const mark = ledgerMark(w.sandbox);
    const off = await w.run([...SEARCH, '--limit', '10', '--no-skip-bought', '--json']);
    expect(off.code).toBe(0);
    expect(off.stdout).toBe(first.stdout);
    expect(off.stderr).not.toContain('--skip-bought');
    expect(mark.since().count).toBe(0);
  });

  it('says so when nothing was bought, and warns that --no-store leaves nothing out', async () => {
    const w = await world();
    const none = await w.run([...SEARCH, '--limit', '3', '--skip-bought', '--json']);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('--skip-bought: no creator bought on instagram within 14 days; none left out.');
    const noStore = await w.run([...SEARCH, '--limit', '3', '--skip-bought', '--no-store', '--dry-run', '--json']);
    expect(noStore.code).toBe(0);
    expect(noStore.stderr).toContain('warning: --skip-bought needs the store: with --no-store no creator is left out.');
    expect(noStore.json<PlanOut>().body.filters).toBeNull();
  });

  it('past 10,000 handles: the given ones, then the most recently bought; a warning counts the rest; the text plan shows the count, not every handle', async () => {
    const w = await world();
    // A store that has bought 100 creators two days ago and 9,950 yesterday (as pages of another search).
    const store = await openSqliteStore({ file: join(w.configDir, 'store', 'default.db') });
    const baseUrl = parseBaseUrl(w.sandbox.url).href;
    const older = Array.from({ length: 100 }, (_, i) => `old${String(i).padStart(3, '0')}`);
    const newer = Array.from({ length: 9_950 }, (_, i) => `new${String(i).padStart(4, '0')}`);
    const answer = (key: string, at: number, n: number): StoredAnswer => ({
      key,
      baseUrl,
      route: 'discovery',
      kind: 'page',
      platform: 'instagram',
      subject: null,
      request: '{}',
      body: '{"accounts":[]}',
      status: 'ok',
      creditsMilli: n * 10,
      records: n,
      boughtAt: at,
      profile: 'default',
    });
    await store.commit(answer('a', T0 - 2 * DAY, older.length), older, undefined);
    await store.commit(answer('b', T0 - DAY, newer.length), newer, undefined);
    await store.close();

    const given = ['mine1', 'mine2', 'mine3', 'mine4', 'mine5'];
    const file = tempFile('seen.txt', `${given.join('\n')}\n`).path;
    const res = await w.run([
      ...SEARCH,
      '--limit',
      '5',
      '--skip-bought',
      '--exclude-handles',
      file,
      '--dry-run',
      '--json',
    ]);
    expect(res.code).toBe(0);
    const excluded = res.json<PlanOut>().body.filters?.exclude_handles ?? [];
    expect(excluded).toHaveLength(10_000);
    expect(excluded.slice(0, 5)).toEqual(given);
    expect(excluded.slice(5, 5 + 9_950)).toEqual(newer);
    expect(excluded.slice(9_955)).toEqual(older.slice(0, 45));
    expect(res.stderr).toContain(
      '--skip-bought: leaving out 9,995 creators already bought on instagram within 14 days.',
    );
    expect(res.stderr).toContain(
      'warning: --skip-bought: 55 more creators bought on instagram within 14 days could not be left out: a request takes at most 10,000 handles',
    );

    const text = await w.run([
      ...SEARCH,
      '--limit',
      '5',
      '--skip-bought',
      '--exclude-handles',
      file,
      '--dry-run',
      '--format',
      'table',
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('"… 9,990 more (10,000 in all)"');
    expect(text.stdout).toContain('"mine1"');
    expect(text.stdout.split('\n').length).toBeLessThan(60);

    // The service takes the 10,000: the real run is sent and answered.
    const real = await w.run([...SEARCH, '--limit', '5', '--skip-bought', '--exclude-handles', file, '--json']);
    expect(real.code).toBe(0);
    expect(handles(real.stdout)).toHaveLength(5);
  });
});
