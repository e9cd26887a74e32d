/**
 * `listening campaigns overview` on a terminal: the campaign, its totals humanised, the 7-day trends as
 * sparklines with first, last and change, the top posts by EMV and a line naming `campaigns content`, at 60,
 * 100 and 200 columns, in Unicode and in ASCII; every other format prints the API's record untouched.
 */
import { describe, expect, it } from 'vitest';
import { changeText } from '../../../src/lib/output/charts.js';
import { humanCount, percent } from '../../../src/lib/output/humanize.js';
import { displayWidth } from '../../../src/lib/io/width.js';
import { runCli, type RunOptions } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { call, L, useClockedSandbox } from './helpers.js';

const sb = useClockedSandbox({ seed: 9, credits: 500 });
const env = (extra: Record<string, string> = {}): Record<string, string> => sandboxEnv(sb.get(), extra);
const term = (columns: number, extra: Record<string, string> = {}): RunOptions => ({
  env: env({ NO_COLOR: '1', ...extra }),
  tty: true,
  columns,
});

interface Overview {
  name: string;
  status: string;
  creators_count: number;
  totals: Record<string, number>;
  posts: { emv: number; creator: { platform_id: string } }[];
  trends_7d: { date: string; posts: number; engagement: number; reach: number }[];
  report: { generated_at: string };
}

/** A campaign of two creators with three days of posts. */
async function campaign(): Promise<{ id: string; record: Overview }> {
  const made = await call(sb.get(), 'POST', `${L}/campaign/`, {
    name: 'Spring',
    days: 30,
    creators: ['instagram:nasa', 'instagram:spacex'],
  });
  const id = String(made.body.id);
  const advanced = await fetch(`${sb.get().url}/_sandbox/listening/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"days": 3}',
  });
  expect(advanced.ok).toBe(true);
  const got = await call(sb.get(), 'GET', `${L}/campaign/${id}/overview/`);
  return { id, record: got.body as Overview };
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('listening campaigns overview on a terminal', () => {
  it.each([60, 100, 200])(
    'at %i columns: totals humanised, trends drawn, the top 5 posts by EMV, where the rest are',
    async (columns) => {
      const { id, record } = await campaign();
      expect(record.posts.length).toBeGreaterThan(5);
      const res = await runCli(['listening', 'campaigns', 'overview', id], term(columns));
      expect(res.code).toBe(0);
      const out = res.stdout;
      const lines = out.split('\n');
      expect(lines[0]).toBe(`Spring · campaign ${id} · ${record.status} · 2 creators`);
      // Totals: every figure humanised, EMV too; no raw digits.
      expect(out).toMatch(new RegExp(`\\n {2}Views +${escape(humanCount(record.totals.views))}\\n`));
      expect(out).toMatch(new RegExp(`\\n {2}EMV +${escape(humanCount(record.totals.emv))}\\n`));
      expect(out).toMatch(new RegExp(`\\n {2}Engagement rate +${escape(percent(record.totals.engagement_rate))}\\n`));
      expect(out).not.toContain(String(record.totals.views));
      expect(out).not.toContain(String(record.totals.emv));
      // Trends: a row per metric, a sparkline, the first and last day and the change.
      // The last day is the one the record was made on, not over: whole days are compared, that day is apart.
      const days = record.trends_7d;
      const made = record.report.generated_at;
      expect(days[6]!.date).toBe(made.slice(0, 10));
      expect(made.slice(11, 16)).not.toBe('00:00');
      expect(out).toContain(`\nLast 6 whole days (${days[0]!.date} to ${days[5]!.date})\n`);
      for (const [label, key] of [
        ['Posts', 'posts'],
        ['Engagement', 'engagement'],
        ['Reach', 'reach'],
      ] as const) {
        const first = days[0]![key];
        const last = days[5]![key];
        expect(out).toMatch(
          new RegExp(
            `\\n {2}${label} +[▁-█]{6,24} +${escape(humanCount(first))} +${escape(humanCount(last))} +${escape(changeText(first, last))}\\n`,
          ),
        );
      }
      const today = days[6]!;
      const todayText = out
        .slice(out.indexOf(`\n  ${today.date} so far`), out.indexOf('\nTop 5 posts'))
        .replace(/\n {2}/g, ' ');
      expect(todayText).toBe(
        ` ${today.date} so far (to ${made.slice(11, 16)} UTC, not a whole day): Posts ${humanCount(today.posts)}, Engagement ${humanCount(today.engagement)}, Reach ${humanCount(today.reach)}\n`,
      );
      // The top posts: five rows, highest EMV first, EMV kept at every width.
      const top = [...record.posts].sort((a, b) => b.emv - a.emv).slice(0, 5);
      expect(out).toContain(`\nTop 5 posts by EMV, of ${record.posts.length}\n`);
      const rows = lines.filter((line) => /^│ \d{4}-\d\d-\d\d /.test(line));
      expect(rows).toHaveLength(5);
      expect(rows.map((row) => row.split('│').at(-2)!.trim())).toEqual(top.map((post) => humanCount(post.emv)));
      expect(rows.map((row) => row.split('│')[2]!.trim())).toEqual(top.map((post) => post.creator.platform_id));
      expect(out).toContain(`\nAll ${record.posts.length} posts: creators listening campaigns content ${id}\n`);
      expect(out).toMatch(/\nReport\n {2}Generated at +\d{4}-\d\d-\d\d \d\d:\d\d UTC\n {2}Summary +\S/);
      expect(lines.at(-2)).toBe('Full record: add --json');
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      expect(out).not.toContain('\x1b');
    },
  );

  it('a locale that is not UTF-8: the trends and the title in ASCII', async () => {
    const { id } = await campaign();
    const res = await runCli(['listening', 'campaigns', 'overview', id], term(100, { LANG: 'C' }));
    expect(res.code).toBe(0);
    const trends = res.stdout.slice(res.stdout.indexOf('\nLast 6 whole days'), res.stdout.indexOf('\nTop 5 posts'));
    expect(trends).toMatch(/ so far \(to \d\d:\d\d UTC, not a whole day\): Posts /);
    expect(trends).toMatch(/\n {2}Posts +[_.:\-=+*#]{7,} +\S+ +\S+ +(from 0|\S+)\n/);
    expect(trends).not.toMatch(/[\u2580-\u259f]/);
    expect(res.stdout.split('\n')[0]).toBe(`Spring - campaign ${id} - active - 2 creators`);
  });

  it('colour paints the sparklines and headings; --no-color the same text without escape codes', async () => {
    const { id } = await campaign();
    const coloured = await runCli(['listening', 'campaigns', 'overview', id], { env: env(), tty: true, columns: 100 });
    expect(coloured.stdout).toMatch(/\x1b\[36m[▁-█]+\x1b\[39m/);
    const plain = await runCli(['listening', 'campaigns', 'overview', id, '--no-color'], {
      env: env(),
      tty: true,
      columns: 100,
    });
    expect(plain.stdout).not.toContain('\x1b');
    expect(coloured.stdout.replace(/\x1b\[\d+m/g, '')).toBe(plain.stdout);
  });

  it('machine output is the record as the API sent it: every post, trends_7d, report', async () => {
    const { id } = await campaign();
    const api = await call(sb.get(), 'GET', `${L}/campaign/${id}/overview/`);
    for (const options of [{ env: env() }, { env: env(), tty: true }]) {
      const json = await runCli(['listening', 'campaigns', 'overview', id, '--json'], options);
      expect(json.json()).toEqual(api.body);
    }
    const piped = await runCli(['listening', 'campaigns', 'overview', id], { env: env() });
    expect(piped.json()).toEqual(api.body);
    const csv = await runCli(['listening', 'campaigns', 'overview', id, '--format', 'csv'], { env: env(), tty: true });
    expect(csv.stdout.split('\n')[0]).toContain('totals.emv');
    expect(csv.stdout).not.toContain('Top 5');
    // --fields on a terminal: the chosen fields, not the screen.
    const fields = await runCli(['listening', 'campaigns', 'overview', id, '--fields', 'name,totals.emv'], {
      env: env(),
      tty: true,
    });
    expect(fields.stdout).toMatch(/│ name +│ Spring +│\n│ totals\.emv +│/);
    expect(fields.stdout).not.toContain('Last 6 whole days');
  });
});
