/**
 * One priority order per terminal table, at 60, 100 and 200 columns: identifiers (a post's URL, a
 * platform, a creator) are never cut; a wide terminal gets the columns a narrow one leaves out (profile
 * URL, user id, country) without a note; lists of objects are named, not JSON; a locale that is not
 * UTF-8 gets ASCII borders.
 */
import { describe, expect, it } from 'vitest';
import { runCli, type RunOptions } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { subscribe, useClockedSandbox } from './listening/helpers.js';

const sb = useClockedSandbox({ seed: 5, credits: 10_000 });
const base = (extra: Record<string, string> = {}): RunOptions => ({
  env: sandboxEnv(sb.get(), { NO_COLOR: '1', ...extra }),
  now: sb.now,
});
const term = (columns: number, extra: Record<string, string> = {}): RunOptions => ({
  ...base(extra),
  tty: true,
  columns,
});
const WIDTHS = [60, 100, 200];

function expectFits(stdout: string, columns: number): void {
  for (const line of stdout.split('\n').filter((l) => l !== ''))
    expect([...line].length, line).toBeLessThanOrEqual(columns);
}

/** The header cells of the first table in `stdout`. */
function headers(stdout: string): string[] {
  const line = stdout.split('\n').find((l) => l.startsWith('│')) ?? '';
  return line
    .split('│')
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

describe('terminal tables give way in one priority order', () => {
  it.each(WIDTHS)('posts at %i columns: every post URL whole (the caption gives way first)', async (columns) => {
    const handle = sb.get().state.creators.list('instagram')[0]!.profile.username;
    const json = await runCli(['posts', handle, '--platform', 'instagram', '--json'], base());
    expect(json.code, json.stderr).toBe(0);
    const urls = json.json<{ post_url: string }[]>().map((p) => p.post_url);
    expect(urls.length).toBeGreaterThan(0);
    const res = await runCli(['posts', handle, '--platform', 'instagram'], term(columns));
    expect(res.code).toBe(0);
    expectFits(res.stdout, columns);
    for (const url of urls) expect(res.stdout).toContain(`│ ${url} │`);
    if (columns === 200)
      expect(headers(res.stdout)).toEqual(['date', 'type', 'caption', 'likes', 'comments', 'views', 'url']);
    if (columns === 100) expect(res.stdout).toMatch(/…/);
  });

  it.each(WIDTHS)(
    'search at %i columns: profile URL and user id only where they fit whole, left out without a note',
    async (columns) => {
      const argv = ['search', '--platform', 'instagram', '--limit', '5'];
      const json = await runCli([...argv, '--json'], base());
      const records = json.json<{ user_id: string; profile: { username: string; url: string } }[]>();
      const res = await runCli(argv, term(columns));
      expect(res.code).toBe(0);
      expectFits(res.stdout, columns);
      expect(res.stderr).not.toContain('left out');
      const head = headers(res.stdout);
      // The profile URL has the room first; the user id takes what is left if it fits.
      const all = ['handle', 'name', 'followers', 'engagement', 'profile', 'user id'];
      expect(head).toEqual(all.filter((h) => head.includes(h)));
      expect(head.slice(0, 4)).toEqual(all.slice(0, 4));
      expect(head.length).toBe(columns === 60 ? 4 : columns === 200 ? 6 : head.length);
      for (const r of records) {
        if (head.includes('profile')) expect(res.stdout).toContain(`│ ${r.profile.url} `);
        if (head.includes('user id')) expect(res.stdout).toContain(`│ ${r.user_id} `);
        expect(res.stdout).not.toMatch(/│ https:\/\/\S*… /);
      }
    },
  );

  it('similar at 200 columns: its similarity before the wide columns', async () => {
    const seed = sb.get().state.creators.list('youtube')[0]!.profile.username;
    const res = await runCli(['similar', seed, '--platform', 'youtube', '--limit', '5'], term(200));
    expect(res.code, res.stderr).toBe(0);
    expect(headers(res.stdout)).toEqual([
      'handle',
      'name',
      'followers',
      'engagement',
      'similarity',
      'profile',
      'user id',
    ]);
  });

  it.each(WIDTHS)('enrich handle at %i columns: country and profile URL on a wide terminal', async (columns) => {
    const handles = sb
      .get()
      .state.creators.list('instagram')
      .slice(0, 2)
      .map((c) => c.profile.username);
    const res = await runCli(['enrich', 'handle', ...handles, '--platform', 'instagram'], term(columns));
    expect(res.code, res.stderr).toBe(0);
    expectFits(res.stdout, columns);
    const head = headers(res.stdout);
    expect(head.includes('profile')).toBe(columns === 200);
    expect(head.includes('country')).toBe(columns === 200);
    expect(res.stderr).not.toMatch(/country|profile/);
    for (const handle of handles) expect(res.stdout).toContain(`│ ${handle} `);
  });

  it.each(WIDTHS)(
    'subscriptions details at %i columns: the platform is never cut; counts and dates leave in their order',
    async (columns) => {
      // A 32-character handle: at 100 columns the table is one column too wide once the dates have left.
      const handles = ['carlosrodriguez_fitness_official', 'samuelkhan'];
      const id = await subscribe(sb.get(), `details-${columns}`, handles);
      sb.advance(3 * 3_600_000);
      const res = await runCli(['listening', 'subscriptions', 'details', String(id)], term(columns));
      expect(res.code, res.stderr).toBe(0);
      expectFits(res.stdout, columns);
      expect(res.stdout).not.toMatch(/instag…|instagr…/);
      for (const handle of handles) expect(res.stdout).toMatch(new RegExp(`│ instagram +│ ${handle} `));
      const head = headers(res.stdout.slice(res.stdout.indexOf('creators:')));
      // One order: what a narrower table shows, a wider one shows too.
      const order = ['Platform', 'Creator', 'Events', 'Delivered', 'Failed', 'Last event', 'Added'];
      const shown = order.filter((h) => head.includes(h));
      expect(shown).toEqual(order.slice(0, shown.length));
      if (columns === 200) expect(head).toContain('Added');
    },
  );

  it.each(WIDTHS)('dict yt-topics at %i columns names the sub-topics instead of printing JSON', async (columns) => {
    const res = await runCli(['dict', 'yt-topics'], term(columns));
    expect(res.code).toBe(0);
    expectFits(res.stdout, columns);
    expect(res.stdout).not.toContain('{"');
    expect(res.stdout).toMatch(/│ Music +│ Christian music, /);
  });

  it('LANG=C: ASCII borders and ...; a UTF-8 locale (or none set) keeps the box characters', async () => {
    const ascii = await runCli(['dict', 'yt-topics'], term(60, { LANG: 'C' }));
    expect(ascii.code).toBe(0);
    expect(ascii.stdout).toMatch(/^\+-+\+-+\+-+\+$/m);
    expect(ascii.stdout).toMatch(/^\| +100 \| Music +\| .*\.\.\. \|$/m);
    expect(ascii.stdout).not.toMatch(/[^\x20-\x7e\n]/);
    const latin = await runCli(['credits'], term(60, { LANG: 'en_US.UTF-8', LC_ALL: 'de_DE.ISO-8859-1' }));
    expect(latin.stdout).toMatch(/^\+-+\+/);
    for (const env of [{ LANG: 'en_US.UTF-8' }, { LC_ALL: 'C.utf8' }, {}] as Record<string, string>[]) {
      const utf8 = await runCli(['credits'], term(60, env));
      expect(utf8.stdout).toMatch(/^┌/);
    }
  });
});
