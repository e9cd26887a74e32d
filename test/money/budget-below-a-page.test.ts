/**
 * A `--max-credits` budget smaller than one page of a paging command: the worst case of the first page
 * already exceeds it, so every paging command refuses before sending anything (exit 5, as cli.md's
 * `--max-credits` rule says), naming the worst case (a page's, where no whole page fits) and the budget; none exits 0 having done nothing.
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 23, rateLimit: 100_000 });

const cases: Array<{ name: string; argv: (handle: string) => string[]; budget: string; page: string }> = [
  {
    name: 'posts --all',
    argv: (h) => ['posts', h, '--platform', 'instagram', '--all'],
    budget: '0.1',
    page: "Cost basis: 1 page x 0.15 (the newest official client's price; the spec says 0.03): --max-credits pays for no whole page.",
  },
  {
    name: 'post --kind comments --all',
    argv: () => ['post', 'https://www.instagram.com/p/DAbCdEfGhIj/', '--kind', 'comments', '--all'],
    budget: '0.02',
    page: 'Worst-case cost 0.03 credits exceeds --max-credits 0.02; nothing was sent.\nCost basis: 1 page x 0.03: --max-credits pays for no whole page.',
  },
  {
    name: 'api --paginate (posts)',
    argv: (h) => ['api', 'creators/content/posts', '-f', 'platform=instagram', '-f', `handle=${h}`, '--paginate'],
    budget: '0.1',
    page: 'Worst-case cost 0.15 credits exceeds --max-credits 0.1; nothing was sent.\nCost basis: 1 page (--max-credits pays for no whole page) x 0.15.',
  },
  {
    name: 'search --all',
    argv: () => ['search', '--platform', 'instagram', '--all', '--limit', '50'],
    budget: '0.1',
    page: 'Worst-case cost 100 credits exceeds --max-credits 0.1',
  },
  {
    name: 'similar --all',
    argv: (h) => ['similar', h, '--platform', 'instagram', '--all', '--limit', '50'],
    budget: '0.1',
    page: 'Worst-case cost 100 credits exceeds --max-credits 0.1',
  },
];

describe('a --max-credits budget below one page', () => {
  it.each(cases)(
    '$name: exit 5 before anything is sent, naming the worst case and the budget',
    async ({ argv, budget, page }) => {
      const handle = creatorHandles(sb.get(), 1, 5)[0] as string;
      const used = sb.get().state.ledger.usedMilli;
      const res = await runCli([...argv(handle), '--max-credits', budget], {
        env: sandboxEnv(sb.get()),
        configDir: tempConfigDir(),
      });
      expect(res.code, res.stderr).toBe(5);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain(`exceeds --max-credits ${budget}; nothing was sent.`);
      expect(res.stderr).toContain(page);
      expect(sb.get().state.ledger.usedMilli).toBe(used);
    },
  );
});

/** The quote of a paging run a budget bounds says how many pages it pays for, naming the budget as the user gave it. */
const quoted: Array<{ name: string; argv: (handle: string) => string[]; basis: string; worst: number }> = [
  {
    name: 'posts --all',
    argv: (h) => ['posts', h, '--platform', 'instagram', '--all'],
    basis:
      "pages unknown x 0.15 (the newest official client's price; the spec says 0.03); stops after 3 pages to stay within --max-credits",
    worst: 0.45,
  },
  {
    name: 'post --kind comments --all',
    argv: () => ['post', 'https://www.instagram.com/p/DAbCdEfGhIj/', '--kind', 'comments', '--all'],
    basis: 'pages unknown x 0.03; stops after 16 pages to stay within --max-credits',
    worst: 0.48,
  },
  {
    name: 'api --paginate (posts)',
    argv: (h) => ['api', 'creators/content/posts', '-f', 'platform=instagram', '-f', `handle=${h}`, '--paginate'],
    basis: '3 pages (as many as --max-credits pays for) x 0.15',
    worst: 0.45,
  },
];

describe('a --max-credits budget that pays for some pages', () => {
  it.each(quoted)('$name: the dry run quotes the pages it pays for, nothing sent', async ({ argv, basis, worst }) => {
    const handle = creatorHandles(sb.get(), 1, 5)[0] as string;
    const used = sb.get().state.ledger.usedMilli;
    const res = await runCli([...argv(handle), '--max-credits', '0.5', '--dry-run', '--json'], {
      env: sandboxEnv(sb.get()),
      configDir: tempConfigDir(),
    });
    expect(res.code, res.stderr).toBe(0);
    const plan = res.json<{ cost_basis: string; worst_case_credits: number }>();
    expect(plan.cost_basis).toBe(basis);
    expect(plan.worst_case_credits).toBeCloseTo(worst, 6);
    expect(sb.get().state.ledger.usedMilli).toBe(used);
  });
});
