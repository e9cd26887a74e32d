/**
 * One creator record on a terminal is a card: sections for what the record holds (and none for what it
 * does not), fitted to 60, 100 and 200 columns, data text escaped, a last line naming --json; piped,
 * --json, -o and --fields output are what they were.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CARD_HINT } from '../../../src/lib/output/card.js';
import { humanCount, percent } from '../../../src/lib/output/humanize.js';
import { displayWidth } from '../../../src/lib/io/width.js';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli, type RunOptions } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';

const sb = useSandbox({ seed: 42, credits: 10_000 });
const base = (): RunOptions => ({ env: sandboxEnv(sb.get(), { NO_COLOR: '1' }) });
const term = (columns: number): RunOptions => ({ ...base(), tty: true, columns });

/** An Instagram creator of the sandbox with brands, an email and a link: every section has something. */
function richCreator(): string {
  const found = sb
    .get()
    .state.creators.list('instagram')
    .find((c) => c.brands.length > 0 && c.email !== null && c.link_in_bio !== null && c.has_done_brand_deals);
  if (!found) throw new Error('no rich creator in the sandbox');
  return found.profile.username;
}

/** Section headings of a card: lines that start at column 0 after a blank line. */
function headings(stdout: string): string[] {
  const lines = stdout.split('\n');
  return lines.filter(
    (line, i) => i > 0 && lines[i - 1] === '' && line !== '' && !line.startsWith(' ') && line !== CARD_HINT,
  );
}

function expectFits(stdout: string, columns: number): void {
  for (const line of stdout.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
}

const lastLine = (stdout: string): string => stdout.trimEnd().split('\n').at(-1) ?? '';

interface Block {
  username: string;
  full_name: string;
  biography: string;
  follower_count: number;
  engagement_percent: number;
}

describe('enrich handle on a terminal: a card', () => {
  it.each([60, 100, 200])(
    '--mode full --audience --lookalikes at %i columns: every section, humanised, fitted, --json named last',
    async (columns) => {
      const handle = richCreator();
      const argv = [
        'enrich',
        'handle',
        handle,
        '--platform',
        'instagram',
        '--mode',
        'full',
        '--audience',
        '--lookalikes',
      ];
      const json = await runCli([...argv, '--json'], base());
      expect(json.code).toBe(0);
      const result = json.json<{ result: { instagram: Block; email: string; lookalikes: { username: string }[] } }>()
        .result;
      const block = result.instagram;

      const res = await runCli(argv, term(columns));
      expect(res.code).toBe(0);
      const out = res.stdout;
      expect(out.split('\n')[0]).toBe(`${block.full_name} @${handle} · instagram`);
      expect(headings(out)).toEqual([
        'Profile',
        'Contact',
        'Metrics',
        'Platforms',
        'Audience (followers)',
        'Sponsors and brands',
        'Lookalikes',
      ]);
      expect(out).toMatch(new RegExp(`\\n  Followers +${humanCount(block.follower_count).replace('.', '\\.')}\\n`));
      expect(out).toMatch(new RegExp(`\\n  Engagement +${percent(block.engagement_percent).replace('.', '\\.')}\\n`));
      expect(out).toContain(`Bio`);
      expect(out.replace(/\n {10,}/g, ' ')).toContain(block.biography);
      expect(out).toContain(result.email);
      // The audience as pictures: credibility on its histogram, marked; shares as bars with their percentages.
      const audience = json.json<{
        result: { instagram: { audience: { audience_followers: { data: Record<string, any> } } } };
      }>().result.instagram.audience.audience_followers.data;
      const credibility = percent(audience.audience_credibility, { fraction: true, digits: 1 });
      expect(out).toMatch(
        new RegExp(`\\n {2}Credibility +40% [▁-█]+ 100%\\n +▲ ${credibility.replace('.', '\\.')}\\n`),
      );
      for (const country of audience.audience_geo.countries) {
        const share = percent(country.weight, { fraction: true, digits: 1 }).replace('.', '\\.');
        expect(out).toMatch(new RegExp(`\\n {2}(Countries)? +${country.name} +█*[▉▊▋▌▍▎▏]?░* +${share}\\n`));
      }
      expect(out).toMatch(/\n {2}Ages +13-17 +[█▉▊▋▌▍▎▏░]+ +\d+(\.\d)?%\n( +\S+ +[█▉▊▋▌▍▎▏░]+ +\d+(\.\d)?%\n){5}/);
      expect(out).toMatch(
        /\n {2}Genders +(Female|Male) +[█▉▊▋▌▍▎▏░]+ +\d+(\.\d)?%\n +(Female|Male) +[█▉▊▋▌▍▎▏░]+ +\d+(\.\d)?%\n/,
      );
      expect(out).toMatch(/\n {2}Growth +[▁-█]{8} [+-]\d/);
      expect(out).toMatch(/\n {2}Past sponsors +@/);
      for (const look of result.lookalikes) expect(out).toContain(`@${look.username} · `);
      expect(lastLine(out)).toBe(CARD_HINT);
      expect(CARD_HINT).toContain('--json');
      expectFits(out, columns);
      // No colour asked for: no escape sequences at all.
      expect(out).not.toContain('\x1b');
    },
  );

  it('a locale that is not UTF-8 (LANG=C), or no locale at all (cron, Docker): the same card in ASCII, charts and borders included', async () => {
    const argv = [
      'enrich',
      'handle',
      richCreator(),
      '--platform',
      'instagram',
      '--mode',
      'full',
      '--audience',
      '--lookalikes',
    ];
    const utf8 = await runCli(argv, term(100));
    for (const env of [
      { LANG: 'C' },
      { LANG: 'en_US.ISO-8859-1', LC_ALL: '' },
      { LANG: '', LC_ALL: '', LC_CTYPE: '' },
      { LANG: 'C.UTF-8', LC_ALL: 'POSIX' },
    ]) {
      const res = await runCli(argv, { ...term(100), env: { ...sandboxEnv(sb.get(), { NO_COLOR: '1' }), ...env } });
      expect(res.code).toBe(0);
      // No block elements, markers or Unicode punctuation of our own (data text keeps its characters).
      expect(res.stdout, JSON.stringify(env)).not.toMatch(/[\u2500-\u259f▲·›–…]/);
      expect(res.stdout).toMatch(/\n {2}Countries +\S.* +#+\.* +\d+(\.\d)?%\n/);
      expect(res.stdout).toMatch(/\n {2}Credibility +40% [_.:\-=+*#]+ 100%\n +\^ \d/);
      expect(res.stdout.split('\n')[0]).toMatch(/ @\S+ - instagram$/);
      // Line for line the same card.
      expect(res.stdout.split('\n')).toHaveLength(utf8.stdout.split('\n').length);
      expectFits(res.stdout, 100);
    }
    expect(utf8.stdout).toMatch(/[█░▲]/);
  });

  it('colour paints the charts; --no-color draws the same shapes without escape codes', async () => {
    const argv = ['enrich', 'handle', richCreator(), '--platform', 'instagram', '--mode', 'full', '--audience'];
    const coloured = await runCli(argv, { env: sandboxEnv(sb.get()), tty: true, columns: 100 });
    expect(coloured.stdout).toMatch(/\x1b\[36m█+/);
    const plain = await runCli([...argv, '--no-color'], { env: sandboxEnv(sb.get()), tty: true, columns: 100 });
    expect(plain.stdout).not.toContain('\x1b');
    expect(coloured.stdout.replace(/\x1b\[\d+m/g, '')).toBe(plain.stdout);
  });

  it('bold headings only when colour is allowed', async () => {
    const argv = ['enrich', 'handle', richCreator(), '--platform', 'instagram', '--mode', 'raw'];
    const coloured = await runCli(argv, { env: sandboxEnv(sb.get()), tty: true, columns: 100 });
    expect(coloured.stdout).toContain('\x1b[1mProfile\x1b[22m');
    const plain = await runCli([...argv, '--no-color'], { env: sandboxEnv(sb.get()), tty: true, columns: 100 });
    expect(plain.stdout).not.toContain('\x1b');
  });

  it('--mode raw: what the record lacks is left out (no audience, platforms, sponsors, lookalikes)', async () => {
    const res = await runCli(
      ['enrich', 'handle', richCreator(), '--platform', 'instagram', '--mode', 'raw'],
      term(100),
    );
    expect(res.code).toBe(0);
    expect(headings(res.stdout)).toEqual(['Profile', 'Contact', 'Metrics']);
    expect(res.stdout).not.toMatch(/Audience|Lookalikes|Sponsors|Platforms|Credibility/);
    expect(lastLine(res.stdout)).toBe(CARD_HINT);
  });

  it('--mode full without --audience or --lookalikes: no audience or lookalike section', async () => {
    const res = await runCli(
      ['enrich', 'handle', richCreator(), '--platform', 'instagram', '--mode', 'full'],
      term(100),
    );
    expect(res.code).toBe(0);
    expect(headings(res.stdout)).toEqual(['Profile', 'Contact', 'Metrics', 'Platforms', 'Sponsors and brands']);
  });

  it('a platform without audience data (twitch, full --audience): no audience section', async () => {
    const handle = sb.get().state.creators.list('twitch')[0]!.profile.username;
    const res = await runCli(
      ['enrich', 'handle', handle, '--platform', 'twitch', '--mode', 'full', '--audience'],
      term(100),
    );
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toContain(`@${handle} · twitch`);
    expect(headings(res.stdout)).not.toContain('Audience (followers)');
  });

  it('enrich email (basic): name, email, the account; no analytics sections', async () => {
    const res = await runCli(['enrich', 'email', 'carladiy.collabs@example.com'], term(100));
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe('Carla Williams @carladiy · instagram');
    expect(headings(res.stdout)).toEqual(['Profile', 'Contact', 'Metrics']);
    expect(res.stdout).toMatch(/\n {2}Email +carladiy\.collabs@example\.com\n/);
    expect(lastLine(res.stdout)).toBe(CARD_HINT);
  });

  it('not found: the key/value table of before (nothing to show in a card), exit 0', async () => {
    const res = await runCli(['enrich', 'handle', 'missing_one', '--platform', 'instagram'], term(100));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/│ status +│ not_found +│/);
    expect(res.stdout).not.toContain(CARD_HINT);
  });
});

describe('enrich on a terminal: hostile data', () => {
  const hostile = {
    result: {
      instagram: {
        username: 'evil\x1b]0;pwned\x07',
        full_name: 'Eve\x1b[2J\x9b31m',
        biography: `line one\r\x1b[1Ahidden ${'x'.repeat(150)} and\tmore\nsecond paragraph \x07`,
        follower_count: 1234567,
        engagement_percent: 3.456,
      },
      other_links: ['https://e.example/\x1b]8;;https://bad.example\x07click\x1b]8;;\x07'],
    },
    credits_cost: 1,
  };

  it.each([60, 100, 200])(
    'at %i columns no control character reaches the terminal; they show as escapes',
    async (columns) => {
      const { agent, pool, env } = mockApi();
      pool
        .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
        .reply(200, hostile, JSON_HEADERS);
      const res = await runCli(['enrich', 'handle', 'evil', '--platform', 'instagram', '--mode', 'raw'], {
        env: { ...env, NO_COLOR: '1' },
        dispatcher: agent,
        stdoutTTY: true,
        columns,
      });
      expect(res.code).toBe(0);
      // Nothing but printable text, spaces and line feeds.
      expect(res.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
      expect(res.stdout).toContain('Eve\\x1b[2J\\u009b31m');
      expect(res.stdout).toContain('@evil\\x1b]0;pwned\\x07');
      expect(res.stdout).toContain('\\r\\x1b[1Ahidden');
      expect(res.stdout).toMatch(/\n {2}Followers +1\.2M\n/);
      expectFits(res.stdout, columns);
      expect(lastLine(res.stdout)).toBe(CARD_HINT);
    },
  );
});

describe('machine output is unchanged', () => {
  it('piped --format table: the same key<TAB>value lines as before', async () => {
    const { agent, pool, env } = mockApi();
    pool.intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' }).reply(
      200,
      {
        result: {
          instagram: { username: 'ann', full_name: 'Ann Lee', follower_count: 4668, engagement_percent: 9.61 },
          email: 'a@x.io',
        },
        credits_cost: 0.03,
      },
      JSON_HEADERS,
    );
    const res = await runCli(
      ['enrich', 'handle', 'ann', '--platform', 'instagram', '--mode', 'raw', '--format', 'table'],
      { env, dispatcher: agent },
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      'handle\tann\nstatus\tok\nname\tAnn Lee\nfollowers\t4668\nengagement\t9.61\nemail\ta@x.io\ncredits\t0.03\n',
    );
  });

  it('--json, --format csv and -o on a terminal write exactly what a pipe gets', async () => {
    const handle = richCreator();
    const argv = [
      'enrich',
      'handle',
      handle,
      '--platform',
      'instagram',
      '--mode',
      'full',
      '--audience',
      '--lookalikes',
    ];
    for (const format of [['--json'], ['--format', 'jsonl'], ['--format', 'csv']]) {
      const piped = await runCli([...argv, ...format], base());
      const tty = await runCli([...argv, ...format], term(100));
      expect(tty.code).toBe(0);
      expect(tty.stdout).toBe(piped.stdout);
      expect(tty.stdout).not.toContain(CARD_HINT);
    }
    const dir = tempDir('creators-card-');
    const file = join(dir, 'one.json');
    const written = await runCli([...argv, '-o', file], term(100));
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    const piped = await runCli([...argv, '--json'], base());
    expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
  });

  it('--fields on a terminal: the chosen fields as key/value rows, not a card', async () => {
    const res = await runCli(
      ['enrich', 'handle', richCreator(), '--platform', 'instagram', '--mode', 'raw', '--fields', 'handle,status'],
      term(100),
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/│ handle +│ \S+ +│\n│ status +│ ok +│/);
    expect(res.stdout).not.toContain(CARD_HINT);
  });
});
