import { afterEach, describe, expect, it } from 'vitest';
import { mediaCount } from '../../src/sandbox/enrichment/creator-posts.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { runCli, tempConfigDir, type RunOptions } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { ledgerMark } from '../reliability/helpers.js';

/**
 * The "next cursor" that `posts` and `post --kind comments` print can be given back with `--cursor`:
 * the run starts at that page, buys that one page, and prints what a run from the start would have
 * printed as its second page.
 */

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function world() {
  const sandbox = await startSandbox({ port: 0, seed: 31 });
  open.push(sandbox);
  const run = (argv: string[], extra: RunOptions = {}) =>
    runCli(argv, { env: sandboxEnv(sandbox), configDir: tempConfigDir(), ...extra });
  const prolific = sandbox.state.creators
    .list('instagram')
    .filter((c) => mediaCount(c) >= 60)
    .map((c) => c.profile.username);
  return { sandbox, run, mark: () => ledgerMark(sandbox), handle: prolific[0]! };
}

const lines = (text: string): unknown[] =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
const cursorIn = (stderr: string): string => (/next cursor (\S+?); --cursor /.exec(stderr) ?? [])[1] ?? '';

describe('--cursor takes the next cursor a run printed', () => {
  it('posts: the page after the first, one page bought, the same posts as the second page of --all', async () => {
    const w = await world();
    const posts = ['posts', w.handle, '--platform', 'instagram', '--format', 'jsonl'];
    const first = await w.run(posts);
    expect(first.code, first.stderr).toBe(0);
    const cursor = cursorIn(first.stderr);
    expect(cursor).not.toBe('');
    expect(first.stderr).toContain(`--cursor ${cursor}`);

    const mark = w.mark();
    const next = await w.run([...posts, '--cursor', cursor]);
    expect(next.code, next.stderr).toBe(0);
    expect(mark.since()).toMatchObject({ count: 1, milli: 30 });
    const both = await w.run([...posts, '--all', '--max-pages', '2']);
    expect(lines(next.stdout)).toEqual(lines(both.stdout).slice(12));
    expect(lines(next.stdout)).not.toEqual(lines(first.stdout));
  });

  it('post --kind comments: the next page of comments', async () => {
    const w = await world();
    const comments = ['post', 'C1a2B3c4D5e', '--platform', 'instagram', '--kind', 'comments', '--format', 'jsonl'];
    const first = await w.run(comments);
    expect(first.code, first.stderr).toBe(0);
    const cursor = cursorIn(first.stderr);
    expect(cursor).not.toBe('');
    const next = await w.run([...comments, '--cursor', cursor]);
    expect(next.code, next.stderr).toBe(0);
    const both = await w.run([...comments, '--all', '--max-pages', '2']);
    expect(lines(next.stdout)).toEqual(lines(both.stdout).slice(lines(first.stdout).length));
    expect(lines(next.stdout).length).toBeGreaterThan(0);
  });

  it('--cursor with another kind than comments is a usage error, nothing sent', async () => {
    const w = await world();
    const mark = w.mark();
    const res = await w.run(['post', 'C1a2B3c4D5e', '--platform', 'instagram', '--cursor', 'abc']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--cursor applies to --kind comments');
    expect(mark.since().count).toBe(0);
  });
});
