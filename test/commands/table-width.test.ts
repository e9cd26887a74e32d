/**
 * Terminal tables keep what must be copied: at 60, 100 and 200 columns, handles, key ids and masked keys
 * and batch ids are shown whole, every line fits the width, and columns left out are named on stderr.
 */
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';
import { runCli, type RunOptions } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { testClock, uploadHandles } from './batch/helpers.js';

const clock = testClock();
const sb = useSandbox({ now: clock.now, credits: 10_000, batchRowsPerSecond: 1 });
const base = (): RunOptions => ({
  env: sandboxEnv(sb.get(), { NO_COLOR: '1' }),
  now: clock.now,
  onSleep: clock.advance,
});
const term = (columns: number): RunOptions => ({ ...base(), tty: true, columns });

/** Display width of a table line (box drawing and `…` are one column each). */
const width = (line: string): number => [...line].length;

function expectFits(stdout: string, columns: number): void {
  for (const line of stdout.split('\n').filter((l) => l !== '')) expect(width(line), line).toBeLessThanOrEqual(columns);
}

const WIDTHS = [60, 100, 200];

describe('terminal tables never cut ids, handles or keys', () => {
  it.each(WIDTHS)('search at %i columns shows every handle whole', async (columns) => {
    const argv = [
      'search',
      '--platform',
      'youtube',
      '--limit',
      '5',
      '--fields',
      'profile.username,profile.full_name,profile.followers,profile.url',
    ];
    const json = await runCli([...argv, '--json'], base());
    expect(json.code).toBe(0);
    const handles = json.json<{ profile: { username: string } }[]>().map((r) => r.profile.username);
    const res = await runCli(argv, term(columns));
    expect(res.code).toBe(0);
    expectFits(res.stdout, columns);
    for (const handle of handles) expect(res.stdout).toContain(`│ ${handle} `);
  });

  it.each(WIDTHS)('similar at %i columns shows every handle whole', async (columns) => {
    const seed = sb.get().state.creators.list('youtube')[0]!.profile.username;
    const json = await runCli(['similar', seed, '--platform', 'youtube', '--limit', '5', '--json'], base());
    expect(json.code).toBe(0);
    const handles = json.json<{ profile: { username: string } }[]>().map((r) => r.profile.username);
    const res = await runCli(['similar', seed, '--platform', 'youtube', '--limit', '5'], term(columns));
    expect(res.code).toBe(0);
    expectFits(res.stdout, columns);
    for (const handle of handles) expect(res.stdout).toContain(`│ ${handle} `);
  });

  it('similar at 60 columns leaves out engagement before similarity (what the command is for)', async () => {
    const seed = sb.get().state.creators.list('youtube')[0]!.profile.username;
    const res = await runCli(['similar', seed, '--platform', 'youtube', '--limit', '5'], term(60));
    expect(res.code).toBe(0);
    expectFits(res.stdout, 60);
    const header = res.stdout.split('\n').find((line) => line.includes('handle')) ?? '';
    expect(header).toMatch(/│ handle +│ name +│ followers │ similarity │/);
    // Broken at spaces to the 60 columns: read as one.
    expect(res.stderr.split('\n').join(' ')).toContain(
      'note: column engagement left out to fit 60 columns; choose columns with --fields',
    );
    // With room for all, the order is the command's.
    const wide = await runCli(['similar', seed, '--platform', 'youtube', '--limit', '5'], term(100));
    expect(wide.stdout).toMatch(/│ handle +│ name +│ followers │ engagement │ similarity │/);
  });

  it.each(WIDTHS)(
    'keys list at %i columns shows id and masked key whole; dates give way first, named on stderr',
    async (columns) => {
      const json = await runCli(['keys', 'list', '--json'], base());
      const keys = json.json<{ id: number; token: string }[]>();
      const res = await runCli(['keys', 'list'], term(columns));
      expect(res.code).toBe(0);
      expectFits(res.stdout, columns);
      for (const key of keys) {
        expect(res.stdout).toMatch(new RegExp(`│ +${String(key.id)} │`));
        expect(res.stdout).toContain(`│ ${key.token} `);
      }
      if (columns === 60) {
        expect(res.stdout).not.toContain('Created');
        expect(res.stdout).toContain('Active');
        expect(res.stderr.split('\n').join(' ')).toContain(
          'note: columns Last used, Created left out to fit 60 columns; choose columns with --fields',
        );
        const quiet = await runCli(['keys', 'list', '--quiet'], term(columns));
        expect(quiet.stderr).not.toContain('left out');
      } else {
        expect(res.stdout).toContain('Created');
        expect(res.stderr).not.toContain('left out');
      }
    },
  );

  it.each(WIDTHS)("batch poll's final table at %i columns shows the batch id whole", async (columns) => {
    const id = await uploadHandles(base(), ['w1', 'w2']);
    const res = await runCli(['batch', 'poll', id, '--interval', '1'], term(columns));
    expect(res.code).toBe(0);
    expectFits(res.stdout, columns);
    expect(res.stdout).toContain(`│ ${id} │`);
  });

  it.each(WIDTHS)('overlap at %i columns shows every creator whole', async (columns) => {
    // The longest handles, so that a 60-column table has to give way somewhere.
    const handles = sb
      .get()
      .state.creators.list('instagram')
      .map((c) => c.profile.username)
      .sort((a, b) => b.length - a.length)
      .slice(0, 3);
    const res = await runCli(['overlap', ...handles, '--platform', 'instagram'], term(columns));
    expect(res.code).toBe(0);
    expectFits(res.stdout, columns);
    for (const handle of handles) expect(res.stdout).toContain(`│ ${handle} `);
  });

  it.each(WIDTHS)('post comments at %i columns show every commenter whole', async (columns) => {
    const json = await runCli(['post', 'Cwidth1', '--platform', 'instagram', '--kind', 'comments', '--json'], base());
    expect(json.code).toBe(0);
    const users = json.json<{ username: string }[]>().map((c) => c.username);
    expect(users.length).toBeGreaterThan(0);
    const res = await runCli(['post', 'Cwidth1', '--platform', 'instagram', '--kind', 'comments'], term(columns));
    expect(res.code).toBe(0);
    expectFits(res.stdout, columns);
    for (const user of users) expect(res.stdout).toContain(`│ ${user} `);
  });

  it('a commenter name longer than the comment column would allow stays whole at 60 columns; the comment gives way', async () => {
    // The sandbox's commenters are short enough to fit anyway: this one is not.
    const user = 'the_longest_commenter_name_in_town_2026';
    const api = mockApi();
    api.pool.intercept({ path: '/public/v1/creators/content/details/', method: 'POST' }).reply(
      200,
      {
        result: {
          comments: [
            { username: user, text: 'a comment long enough to need cutting at sixty columns, surely', like_count: 3 },
          ],
        },
        credits_cost: 0.03,
      },
      JSON_HEADERS,
    );
    const res = await runCli(['post', 'Clong', '--platform', 'instagram', '--kind', 'comments'], {
      env: { ...api.env, NO_COLOR: '1' },
      dispatcher: api.agent,
      tty: true,
      columns: 60,
    });
    expect(res.code).toBe(0);
    expectFits(res.stdout, 60);
    expect(res.stdout).toContain(`│ ${user} `);
    expect(res.stdout).toContain('…');
  });
});

/** The rows of a terminal key/value table: each value with its wrapped lines (`join` between them). */
/** A key/value table's box, and the lines printed under it (URLs). */
function splitBox(stdout: string): [string, string] {
  const lines = stdout.split('\n');
  const end = lines.findIndex((line) => line.startsWith('└'));
  return [lines.slice(0, end + 1).join('\n'), lines.slice(end + 1).join('\n')];
}

function keyValues(stdout: string, join: string): Map<string, string> {
  const values = new Map<string, string>();
  let last = '';
  for (const line of stdout.split('\n')) {
    const cells = /^│ (.*?) +│ (.*?) *│$/u.exec(line);
    if (!cells) continue;
    const [, label = '', value = ''] = cells;
    if (label.trim() !== '') {
      last = label.trim();
      values.set(last, value);
    } else values.set(last, `${values.get(last) ?? ''}${join}${value}`);
  }
  return values;
}

describe('key/value tables wrap long values instead of cutting them', () => {
  it.each(WIDTHS)(
    'post at %i columns: the caption wrapped, URLs never split inside the box, media named',
    async (columns) => {
      const json = await runCli(['post', 'Cwidth1', '--platform', 'instagram', '--json'], base());
      expect(json.code).toBe(0);
      const post = json.json<{ post_url: string; caption: string; media: { type: string; url: string }[] }>();
      const res = await runCli(['post', 'Cwidth1', '--platform', 'instagram'], term(columns));
      expect(res.code).toBe(0);
      const [box = '', below = ''] = splitBox(res.stdout);
      expectFits(box, columns);
      expect(res.stdout).not.toContain('…');
      // A URL is in the box only when it fits on one line of it; else the cell points below, where it is whole.
      const values = keyValues(box, '');
      const urlCell = values.get('post_url');
      if (urlCell === '(link below)')
        expect(below).toMatch(new RegExp(`^post_url(:\\n| +)${post.post_url.replace(/[.?]/g, '\\$&')}$`, 'm'));
      else expect(urlCell).toBe(post.post_url);
      expect(urlCell === '(link below)').toBe(columns === 60);
      // Every URL in the box is on one line of it, whole.
      for (const line of box.split('\n').filter((l) => l.includes('http')))
        expect(line).toContain(`│ ${post.post_url} `);
      // The media: named by type, its URL under the table, never JSON.
      expect(values.get('media')).toBe(`${post.media.map((m) => m.type).join(', ')} (link below)`);
      for (const m of post.media)
        expect(below.split('\n').some((line) => line === m.url || line.endsWith(`  ${m.url}`))).toBe(true);
      expect(res.stdout).not.toContain('[{');
      expect(keyValues(box, ' ').get('caption')).toBe(post.caption);
      // Piped: key<TAB>value lines, one per key, unchanged.
      const piped = await runCli(['post', 'Cwidth1', '--platform', 'instagram', '--format', 'table'], base());
      expect(piped.stdout.split('\n')).toContain(`post_url\t${post.post_url}`);
    },
  );
});
