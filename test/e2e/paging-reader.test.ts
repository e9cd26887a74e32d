/**
 * Paging runs buy ahead only while the reader keeps up (issue 38, item 6): the built CLI's stdout is a real
 * pipe to a real consumer, and the sandbox ledger counts the pages charged. No page is requested while the
 * output of the one before it is blocked on the reader, so a reader that goes away stops the spending at the
 * page being written (a closed pipe is only learnt by writing to it), and a reader that keeps up gets every page.
 */
import { spawn } from 'node:child_process';
import { getDefaultHighWaterMark } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

// Slow enough that pages are sent several at a time (lib/bulk/concurrency.ts) once the total is known.
const sb = useSandbox({ seed: 38, latency: 'discovery=400ms,content=400ms' });
const charged = (route: string): number => sb.get().state.ledger.charges.filter((c) => c.route === route).length;
const DISCOVERY = '/public/v1/discovery/';
const POSTS = '/public/v1/creators/content/posts/';

/** `creators <args> | <consumer>` through sh: a real pipe, as a shell makes it. The consumer's stdout is returned. */
function piped(args: string[], consumer: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
    const line = `${q(process.execPath)} ${q(BIN)} ${args.map(q).join(' ')} 2>/dev/null | ${consumer}`;
    const child = spawn('sh', ['-c', line], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        NODE: process.execPath,
        CREATORS_CONFIG_DIR: tempDir('creators-pipe-'),
        ...sandboxEnv(sb.get()),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** The sandbox charges on arrival: requests still on their way when the pipeline ends are counted once they land. */
async function settled(count: () => number): Promise<number> {
  let last = -1;
  for (let n = count(); n !== last; n = count()) {
    last = n;
    await new Promise((r) => setTimeout(r, 600));
  }
  return last;
}

describe('search --all into a pipe', () => {
  for (const format of ['jsonl', 'csv']) {
    it(`| head -1 (${format}): no page is sent after the pipe could be known closed`, async () => {
      const before = charged(DISCOVERY);
      const res = await piped(
        ['search', '--platform', 'instagram', '--all', '--format', format, '--no-store'],
        'head -1',
      );
      expect(res.code).toBe(0);
      expect(res.out.split('\n')).toHaveLength(2);
      const bought = (await settled(() => charged(DISCOVERY))) - before;
      // jsonl prints page 1 at once: page 2 (asked for once page 1 was written) is the page being written when the
      // pipe is found closed. csv infers its columns from 100 records, so its first line needs two pages, then one more.
      expect(bought).toBeGreaterThanOrEqual(1);
      expect(bought).toBeLessThanOrEqual(format === 'csv' ? 3 : 2);
    });
  }

  it('a reader that does not read for a while, then reads one line: pages stop once the pipe is full', async () => {
    const page = await pageSize();
    const before = charged(DISCOVERY);
    const res = await piped(
      ['search', '--platform', 'instagram', '--all', '--format', 'jsonl', '--no-store'],
      '{ sleep 3; head -1; }',
    );
    expect(res.code).toBe(0);
    expect(res.out.split('\n')).toHaveLength(2);
    const bought = (await settled(() => charged(DISCOVERY))) - before;
    // What the pipe and the stream's buffer take before a write waits (64 KiB on Linux, and Node's default
    // high-water mark: 16 KiB on Node 20, 64 KiB from Node 22), in pages of this run's size, the last of them the
    // page whose write waited; then the pages sent ahead while the reader still kept up (the window at this
    // latency, 3 or 4). Nothing is asked for once the write waits (the exact rule is
    // test/commands/paging.reader.test.ts's, with a reader that holds every write).
    const held = Math.ceil((64 * 1024 + getDefaultHighWaterMark(false)) / page);
    expect(bought).toBeLessThanOrEqual(held + 4);
  });

  it('a slow reader gets every page, bought as it reads', async () => {
    const before = charged(DISCOVERY);
    const slow = `"$NODE" -e 'process.stdin.on("data",(c)=>{process.stdout.write(c);process.stdin.pause();setTimeout(()=>process.stdin.resume(),40)})'`;
    const res = await piped(
      ['search', '--platform', 'instagram', '--all', '--max-results', '300', '--format', 'jsonl', '--no-store'],
      slow,
    );
    expect(res.code).toBe(0);
    const lines = res.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { user_id: string });
    expect(new Set(lines.map((l) => l.user_id)).size).toBe(300);
    expect((await settled(() => charged(DISCOVERY))) - before).toBe(6);
  });

  it('a reader that keeps up gets every page, in order', async () => {
    const before = charged(DISCOVERY);
    const res = await piped(
      ['search', '--platform', 'instagram', '--all', '--max-results', '600', '--format', 'jsonl', '--no-store'],
      'cat',
    );
    expect(res.code).toBe(0);
    const lines = res.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { user_id: string });
    expect(lines).toHaveLength(600);
    expect(new Set(lines.map((l) => l.user_id)).size).toBe(600);
    expect((await settled(() => charged(DISCOVERY))) - before).toBe(12);
  });
});

describe('api --paginate into a pipe', () => {
  it('| head -1: a billed cursor route stops at the page being written', async () => {
    const handle = sb.get().state.creators.list('instagram')[0]!.profile.username;
    const before = charged(POSTS);
    const res = await piped(
      [
        'api',
        'creators/content/posts',
        '-f',
        'platform=instagram',
        '-f',
        `handle=${handle}`,
        '--paginate',
        '--max-pages',
        '6',
        '--format',
        'jsonl',
        '--no-store',
      ],
      'head -1',
    );
    expect(res.code).toBe(0);
    const bought = (await settled(() => charged(POSTS))) - before;
    expect(bought).toBeGreaterThanOrEqual(1);
    expect(bought).toBeLessThanOrEqual(2);
  });
});

/** The bytes of one page of the search above as jsonl (50 creators). */
async function pageSize(): Promise<number> {
  const res = await piped(
    ['search', '--platform', 'instagram', '--limit', '50', '--format', 'jsonl', '--no-store'],
    'wc -c',
  );
  return Number(res.out.trim());
}
