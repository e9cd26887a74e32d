import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configure } from '../../src/sandbox/state.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { useStoreWorlds } from '../helpers/store-world.js';

/**
 * search and similar with the purchase memory: a page bought within the window comes from the store at
 * 0 credits (the sandbox ledger is the referee), a dry run prices only the pages the store would not
 * answer, the terminal summary counts stored pages, and a run stopped part-way (402, the daily
 * Discovery limit) re-run buys only the pages it had not bought, its output whole.
 */

type Account = { profile: { username: string } };
interface PlanOut {
  dry_run: true;
  url: string;
  body: { filters: Record<string, unknown> | null; paging: { limit: number; page: number } };
  worst_case_credits: number;
  cost_basis: string;
}

/** A sandbox of its own and a config directory (so a store) of its own, shared by the runs of one test. */
const world = useStoreWorlds(41);

const handles = (json: string): string[] => (JSON.parse(json) as Account[]).map((a) => a.profile.username);
const SEARCH = ['search', '--platform', 'instagram'];

describe('search: pages from the store', () => {
  it('the same search again comes from the store: 0 credits, the same output; the summary says how many pages the store answered', async () => {
    const w = await world();
    const first = w.mark();
    const a = await w.run([...SEARCH, '--max-results', '100', '--json'], { stderrTTY: true });
    expect(a.code).toBe(0);
    expect(first.since()).toMatchObject({ count: 2, milli: 1000 });
    expect(a.stderr).toMatch(/^Spent 1 credit on 100 creators \(2 pages\); [\d.,]+ credits left\.$/m);

    const again = w.mark();
    const b = await w.run([...SEARCH, '--max-results', '100', '--json'], { stderrTTY: true });
    expect(b.code).toBe(0);
    expect(again.since()).toEqual({ count: 0, milli: 0, notes: [] });
    expect(b.stdout).toBe(a.stdout);
    // A stored page's balance is stale: no "credits left".
    // What came from the store, said once: in the summary.
    // The line is broken at spaces on a 100-column terminal: read as one.
    expect(b.stderr.split('\n').join(' ')).toContain(
      'Spent 0 credits on 100 creators (2 pages; 2 from the store, bought within 24 hours; --max-age 0 buys fresh).',
    );
    expect(b.stderr).not.toContain('answered from the store');

    // Piped: no summary, the same data.
    const piped = await w.run([...SEARCH, '--max-results', '100', '--json']);
    expect(piped.stdout).toBe(a.stdout);
    expect(piped.stderr).not.toContain('Spent');
    expect(again.since().count).toBe(0);

    // --max-age 0 buys fresh.
    const fresh = w.mark();
    const c = await w.run([...SEARCH, '--max-results', '100', '--json', '--max-age', '0'], { stderrTTY: true });
    expect(c.code).toBe(0);
    expect(fresh.since()).toMatchObject({ count: 2, milli: 1000 });
    expect(c.stderr).toMatch(/^Spent 1 credit on 100 creators \(2 pages\); /m);
  });

  it('a run partly from the store: the summary counts what it bought and what the store answered', async () => {
    const w = await world();
    await w.run([...SEARCH, '--limit', '10', '--json']);
    const mark = w.mark();
    const res = await w.run([...SEARCH, '--limit', '10', '--max-results', '30', '--json'], { stderrTTY: true });
    expect(res.code).toBe(0);
    expect(handles(res.stdout)).toHaveLength(30);
    expect(mark.since()).toMatchObject({ count: 2, milli: 200 });
    expect(res.stderr.split('\n').join(' ')).toMatch(
      /^Spent 0\.2 credits on 30 creators \(3 pages; 1 from the store, bought within 24 hours; --max-age 0 buys fresh\); [\d.,]+ credits left\.( |$)/m,
    );
  });
});

describe('search --dry-run: what the store would answer is named and not priced', () => {
  it('a single page the store holds: worst case 0, nothing sent, nothing charged', async () => {
    const w = await world();
    const none = await w.run([...SEARCH, '--limit', '10', '--dry-run', '--json']);
    expect(none.json<PlanOut>()).toMatchObject({ worst_case_credits: 0.1, cost_basis: '10 creators x 1 page x 0.01' });
    await w.run([...SEARCH, '--limit', '10', '--json']);
    const mark = w.mark();
    const res = await w.run([...SEARCH, '--limit', '10', '--dry-run', '--json']);
    expect(res.code).toBe(0);
    expect(res.json<PlanOut>()).toMatchObject({
      worst_case_credits: 0,
      cost_basis: '1 page (10 creators) from the store at 0 credits; nothing to buy',
    });
    expect(mark.since().count).toBe(0);
    // Another page is not in the store.
    const other = await w.run([...SEARCH, '--limit', '10', '--page', '2', '--dry-run', '--json']);
    expect(other.json<PlanOut>()).toMatchObject({ worst_case_credits: 0.1, cost_basis: '10 creators x 1 page x 0.01' });
  });

  it('--all after a stopped run: the stored pages from the start at 0 credits, the worst case of the rest from the first page to buy', async () => {
    // 0.25 credits: two pages of 10 are paid, the third is refused (402).
    const w = await world({ credits: 0.25 });
    const stopped = await w.run([...SEARCH, '--all', '--limit', '10', '--json']);
    expect(stopped.code).toBe(5);
    const mark = w.mark();
    const res = await w.run([...SEARCH, '--all', '--limit', '10', '--dry-run', '--json']);
    expect(res.code).toBe(0);
    const plan = res.json<PlanOut>();
    // Buying would start at the third page (wire page 2: the sandbox counts from 0).
    expect(plan.body.paging).toEqual({ limit: 10, page: 2 });
    expect(plan.worst_case_credits).toBe(99.8);
    expect(plan.cost_basis).toBe(
      '2 pages (20 creators) from the store at 0 credits, then from page 3: 10 creators x 998 pages x 0.01',
    );
    expect(mark.since().count).toBe(0);

    // --max-results: the rest is exactly the creators still wanted.
    const capped = await w.run([...SEARCH, '--all', '--limit', '10', '--max-results', '35', '--dry-run', '--json']);
    expect(capped.json<PlanOut>()).toMatchObject({
      worst_case_credits: 0.15,
      cost_basis:
        '2 pages (20 creators) from the store at 0 credits, then from page 3: 15 creators x 0.01, in pages of 10 and a smaller last request',
    });

    // The text plan says the same.
    const text = await w.run([...SEARCH, '--all', '--limit', '10', '--dry-run', '--format', 'table']);
    expect(text.stdout).toContain(
      'Worst-case cost: 99.8 credits (2 pages (20 creators) from the store at 0 credits, then from page 3: 10 creators x 998 pages x 0.01)',
    );

    // --max-credits and the budget see the rest only: 0.1 pays for one more page of 10 at most.
    configure(w.sandbox.state, { credits: 100 });
    const bounded = await w.run([
      ...SEARCH,
      '--all',
      '--limit',
      '10',
      '--max-results',
      '30',
      '--max-credits',
      '0.1',
      '--json',
    ]);
    expect(bounded.code).toBe(0);
    expect(handles(bounded.stdout)).toHaveLength(30);
    expect(mark.since()).toMatchObject({ count: 1, milli: 100 });
  });

  it('--all whose every page is in the store: worst case 0; a stored short last page ends it', async () => {
    const w = await world();
    const few = ['--min-followers', '1000000'];
    const all = await w.run([...SEARCH, ...few, '--all', '--limit', '10', '--json']);
    expect(all.code).toBe(0);
    const n = handles(all.stdout).length;
    expect(n).toBeGreaterThan(10);
    // The total says where it ends: a short last page, or none after a full one.
    const pages = Math.ceil(n / 10);
    const res = await w.run([...SEARCH, ...few, '--all', '--limit', '10', '--dry-run', '--json']);
    expect(res.json<PlanOut>()).toMatchObject({
      worst_case_credits: 0,
      cost_basis: `${pages} pages (${n} creators) from the store at 0 credits; nothing to buy`,
    });
    // And the real run buys nothing.
    const mark = w.mark();
    const again = await w.run([...SEARCH, ...few, '--all', '--limit', '10', '--json']);
    expect(again.stdout).toBe(all.stdout);
    expect(mark.since().count).toBe(0);
  });

  it('a page about to leave its window is priced (the run may reach it after), though the run still takes it from the store', async () => {
    const w = await world();
    const t0 = Date.parse('2026-11-22T10:00:00Z');
    let t = t0;
    const at = { now: () => t };
    await w.run([...SEARCH, '--limit', '10', '--json'], at);
    t = t0 + 3_600_000;
    expect((await w.run([...SEARCH, '--limit', '10', '--dry-run', '--json'], at)).json<PlanOut>()).toMatchObject({
      worst_case_credits: 0,
    });
    // A minute before the 24-hour page window ends.
    t = t0 + 86_400_000 - 60_000;
    expect((await w.run([...SEARCH, '--limit', '10', '--dry-run', '--json'], at)).json<PlanOut>()).toMatchObject({
      worst_case_credits: 0.1,
      cost_basis: '10 creators x 1 page x 0.01',
    });
    const mark = w.mark();
    expect((await w.run([...SEARCH, '--limit', '10', '--json'], at)).code).toBe(0);
    expect(mark.since().count).toBe(0);
  });

  it('with --no-store the dry run prices every page', async () => {
    const w = await world();
    await w.run([...SEARCH, '--limit', '10', '--json']);
    const res = await w.run([...SEARCH, '--limit', '10', '--dry-run', '--json', '--no-store']);
    expect(res.json<PlanOut>()).toMatchObject({ worst_case_credits: 0.1 });
  });
});

describe('search|similar --all -o stopped part-way, re-run: only the pages not bought are bought, the file whole', () => {
  it('search after a 402: the re-run buys the rest only; the file equals a run that never stopped', async () => {
    const w = await world({ credits: 0.25 });
    const dir = tempDir('creators-resume-');
    const out = join(dir, 'p.json');
    const args = [...SEARCH, '--all', '--limit', '10', '--max-results', '60', '-o', out];
    const stop = w.mark();
    const stopped = await w.run(args);
    expect(stopped.code).toBe(5);
    expect(stop.since()).toMatchObject({ count: 2, milli: 200 });
    expect(handles(readFileSync(out, 'utf8'))).toHaveLength(20);

    configure(w.sandbox.state, { credits: 100 });
    const resume = w.mark();
    const res = await w.run(args, { stderrTTY: true });
    expect(res.code).toBe(0);
    // 40 creators bought, in 4 pages: the 2 pages already paid for came from the store.
    expect(resume.since()).toMatchObject({ count: 4, milli: 400 });
    expect(res.stderr.split('\n').join(' ')).toMatch(
      /Spent 0\.4 credits on 60 creators \(6 pages; 2 from the store, bought within 24 hours; --max-age 0 buys fresh\); /,
    );
    const whole = handles(readFileSync(out, 'utf8'));
    expect(new Set(whole).size).toBe(60);

    // The same search never stopped, in another store: the same creators in the same order.
    const reference = await runCli([...SEARCH, '--all', '--limit', '10', '--max-results', '60', '--json'], {
      env: sandboxEnv(w.sandbox),
      configDir: tempConfigDir(),
    });
    expect(whole).toEqual(handles(reference.stdout));
  });

  it('similar after the daily Discovery limit, to CSV: the re-run buys the rest only', async () => {
    const w = await world({ dailyDiscoveryLimit: 0.3 });
    const seed = w.sandbox.state.creators.list('instagram')[0]!.profile.username;
    const dir = tempDir('creators-resume-');
    const out = join(dir, 'similar.csv');
    const args = [
      'similar',
      seed,
      '--platform',
      'instagram',
      '--all',
      '--limit',
      '10',
      '--max-results',
      '50',
      '-o',
      out,
    ];
    const stop = w.mark();
    const stopped = await w.run(args);
    expect(stopped.code).toBe(5);
    expect(stopped.stderr).toContain('Daily Discovery credit limit');
    const paid = stop.since();
    expect(paid.count).toBe(3);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(1 + 30);

    configure(w.sandbox.state, { dailyDiscoveryLimit: 1000 });
    const dry = await w.run([...args, '--dry-run', '--json']);
    expect(dry.json<PlanOut>()).toMatchObject({
      worst_case_credits: 0.2,
      cost_basis: expect.stringMatching(
        /^3 pages \(30 creators\) from the store at 0 credits, then from page 4: 20 creators/,
      ),
    });
    const resume = w.mark();
    const res = await w.run(args);
    expect(res.code).toBe(0);
    expect(resume.since()).toMatchObject({ count: 2, milli: 200 });
    const rows = readFileSync(out, 'utf8').trim().split('\n');
    expect(rows).toHaveLength(1 + 50);
    expect(new Set(rows.slice(1).map((r) => r.split(',')[0])).size).toBe(50);
  });
});
