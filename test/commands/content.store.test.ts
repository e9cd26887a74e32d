import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mediaCount } from '../../src/sandbox/enrichment/creator-posts.js';
import { creditCount } from '../../src/lib/words.js';
import { configure } from '../../src/sandbox/state.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { useStoreWorlds } from '../helpers/store-world.js';

/**
 * Cursor-paged commands (`posts --all`, `post --kind comments --all`) and `overlap` with the purchase
 * memory: a page bought within the window comes from the store at 0 credits, and the cursor of a stored
 * page leads to the next stored page, so a run stopped part-way (a 402) re-run buys only the pages it had
 * not bought and its output is whole. Terminal summaries count 0 for what came from the store.
 */

const worlds = useStoreWorlds(31);

async function world(options: Parameters<typeof worlds>[0] = {}) {
  const w = await worlds(options);
  // Creators of the sandbox with five pages of posts (60, Instagram pages of 12).
  const prolific = w.sandbox.state.creators
    .list('instagram')
    .filter((c) => mediaCount(c) >= 60)
    .map((c) => c.profile.username);
  const posts = ['posts', prolific[0]!, '--platform', 'instagram', '--all', '--format', 'jsonl'];
  return { ...w, prolific, posts };
}

const lines = (text: string): unknown[] =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
const COMMENTS = ['post', 'C1a2B3c4D5e', '--platform', 'instagram', '--kind', 'comments', '--all', '--format', 'jsonl'];

describe('posts --all with the store', () => {
  it('again: every page from the store (the cursors lead from one stored page to the next), 0 credits, the same posts', async () => {
    const w = await world();
    const first = w.mark();
    const POSTS = [...w.posts, '--max-pages', '3'];
    const a = await w.run(POSTS, { stderrTTY: true });
    expect(a.code).toBe(0);
    expect(first.since()).toMatchObject({ count: 3, milli: 90 });
    expect(lines(a.stdout)).toHaveLength(36);
    expect(a.stderr).toContain('0.09 credits spent.');

    const again = w.mark();
    const b = await w.run(POSTS, { stderrTTY: true });
    expect(b.code).toBe(0);
    expect(again.since().count).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    expect(b.stderr).toContain(
      '0 credits spent (3 pages; 3 from the store, bought within 24 hours; --max-age 0 buys fresh).',
    );
    // One page more: two from the store, one bought.
    const more = w.mark();
    const c = await w.run([...w.posts, '--max-pages', '4'], { stderrTTY: true });
    expect(c.code).toBe(0);
    expect(more.since()).toMatchObject({ count: 1, milli: 30 });
    expect(c.stdout.startsWith(a.stdout)).toBe(true);
    expect(c.stderr).toContain(
      '0.03 credits spent (4 pages; 3 from the store, bought within 24 hours; --max-age 0 buys fresh).',
    );
  });

  it('stopped by a 402, re-run: only the pages not bought are bought; the file is whole', async () => {
    // 0.07 credits: two pages at 0.03, the third refused.
    const w = await world({ credits: 0.07 });
    const POSTS = w.posts;
    const out = join(tempDir('creators-posts-'), 'posts.jsonl');
    const stop = w.mark();
    const stopped = await w.run([...POSTS, '-o', out]);
    expect(stopped.code).toBe(5);
    expect(stop.since()).toMatchObject({ count: 2, milli: 60 });
    expect(lines(readFileSync(out, 'utf8'))).toHaveLength(24);

    // The dry run follows the stored pages' cursors and prices the rest from the first page not bought.
    const dry = await w.run([...POSTS, '--max-pages', '5', '--dry-run']);
    expect(dry.code).toBe(0);
    const plan = dry.json<{
      body: { pagination_token?: string };
      worst_case_credits: number | null;
      cost_basis: string;
    }>();
    expect(plan.worst_case_credits).toBe(0.45);
    expect(plan.cost_basis).toBe(
      "2 pages from the store at 0 credits, then 3 requests x 0.15 (the newest official client's price; the spec says 0.03)",
    );
    expect(plan.body.pagination_token).toMatch(/\S/);
    const unbounded = await w.run([...POSTS, '--dry-run']);
    expect(unbounded.json<{ worst_case_credits: number | null; cost_basis: string }>()).toMatchObject({
      worst_case_credits: null,
      cost_basis: expect.stringMatching(/^2 pages from the store at 0 credits, then pages unknown x 0\.15/),
    });
    expect(stop.since().count).toBe(2);

    configure(w.sandbox.state, { credits: 100 });
    const resume = w.mark();
    const res = await w.run([...POSTS, '-o', out]);
    expect(res.code).toBe(0);
    // Five pages in all: the two paid for came from the store.
    expect(resume.since()).toMatchObject({ count: 3, milli: 90 });
    const whole = readFileSync(out, 'utf8');
    const reference = await runCli(POSTS, { env: sandboxEnv(w.sandbox), configDir: tempConfigDir() });
    expect(whole).toBe(reference.stdout);
  });
});

describe('post --kind comments --all with the store', () => {
  it('stopped by a 402, re-run: the stored pages lead to the first page not bought; the summary counts them at 0', async () => {
    const w = await world({ credits: 0.07 });
    const out = join(tempDir('creators-comments-'), 'comments.jsonl');
    const stop = w.mark();
    const stopped = await w.run([...COMMENTS, '-o', out]);
    expect(stopped.code).toBe(5);
    expect(stop.since()).toMatchObject({ count: 2, milli: 60 });

    configure(w.sandbox.state, { credits: 100 });
    // --max-credits bounds the pages bought, not the ones from the store: 0.03 buys the third page only.
    const bounded = w.mark();
    const some = await w.run([...COMMENTS, '--max-credits', '0.03'], { stderrTTY: true });
    expect(some.code).toBe(0);
    expect(bounded.since()).toMatchObject({ count: 1, milli: 30 });
    expect(some.stderr).toContain('Stopped after the page limit; more comments remain.');
    expect(some.stderr).toContain(
      '0.03 credits spent (3 pages; 2 from the store, bought within 24 hours; --max-age 0 buys fresh)',
    );

    const reference = await runCli(COMMENTS, { env: sandboxEnv(w.sandbox), configDir: tempConfigDir() });
    const resume = w.mark();
    const res = await w.run([...COMMENTS, '-o', out], { stderrTTY: true });
    expect(res.code).toBe(0);
    // The pages of the whole run, less the three already bought, each at 0.03.
    const bought = resume.since();
    expect(bought.count).toBeGreaterThan(0);
    expect(bought.milli).toBe(bought.count * 30);
    expect(res.stderr).toContain(
      `${creditCount(bought.milli)} spent (${bought.count + 3} pages; 3 from the store, bought within 24 hours; --max-age 0 buys fresh)`,
    );
    expect(readFileSync(out, 'utf8')).toBe(reference.stdout);

    // All from the store now: 0 credits, no balance (a stored answer's is stale).
    const again = w.mark();
    const all = await w.run(COMMENTS, { stderrTTY: true });
    expect(all.stdout).toBe(reference.stdout);
    expect(again.since().count).toBe(0);
    const pages = bought.count + 3;
    // The line is broken at spaces on a 100-column terminal: read as one.
    expect(all.stderr.split('\n').join(' ')).toContain(
      `0 credits spent (${pages} pages; ${pages} from the store, bought within 24 hours; --max-age 0 buys fresh).`,
    );
    const dry = await w.run([...COMMENTS, '--dry-run']);
    expect(dry.json<{ worst_case_credits: number | null; cost_basis: string }>()).toMatchObject({
      worst_case_credits: 0,
      cost_basis: `${pages} pages from the store at 0 credits; nothing to buy`,
    });
    // One page (not --all): the first, from the store.
    const one = await w.run([...COMMENTS.filter((a) => a !== '--all'), '--dry-run']);
    expect(one.json<{ worst_case_credits: number | null; cost_basis: string }>()).toMatchObject({
      worst_case_credits: 0,
      cost_basis: '1 page from the store at 0 credits; nothing to buy',
    });
  });
});

describe('overlap with the store', () => {
  it('the same comparison again: 0 credits spent, no balance, the same answer', async () => {
    const w = await world();
    const args = ['overlap', ...w.prolific.slice(0, 2), '--platform', 'instagram', '--json'];
    const first = w.mark();
    const a = await w.run(args, { stderrTTY: true });
    expect(a.code).toBe(0);
    expect(first.since()).toMatchObject({ count: 1, milli: 1000 });
    expect(a.stderr).toMatch(/^1 credit spent, [\d,.]+ left\.$/m);
    const again = w.mark();
    const b = await w.run(args, { stderrTTY: true });
    expect(b.code).toBe(0);
    expect(again.since().count).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    // Said once: the one line names the store, its freshness and how to buy fresh.
    expect(b.stderr).toMatch(/^From the store \(bought within 14 days\): 0 credits; --max-age 0 buys fresh\.$/m);
    expect(b.stderr).not.toContain('answered from the store');
    expect(b.stderr).not.toContain('spent');
    // What the store answers is priced at 0: a --max-credits 0 guard (or a spent budget) lets it through.
    const plan = await w.run([...args, '--dry-run']);
    expect(JSON.parse(plan.stdout)).toMatchObject({ worst_case_credits: 0, cost_basis: 'from the store at 0 credits' });
    const guarded = await w.run([...args, '--max-credits', '0']);
    expect(guarded.code, guarded.stderr).toBe(0);
    expect(again.since().count).toBe(0);
  });
});
