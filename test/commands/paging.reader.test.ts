import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/until.js';

/**
 * Buy ahead only while the reader keeps up (issue 38, item 6): no page is requested while the output of the page
 * before it waits on its reader (write() said false, no 'drain' yet). The reader here holds every write until
 * released, as a full pipe does; the sandbox ledger counts what was bought meanwhile.
 */
const sb = useSandbox({ seed: 38 });
const charged = (route: string): number => sb.get().state.ledger.charges.filter((c) => c.route === route).length;

/** A stdout whose reader takes nothing until `release()`: the first write fills it and the writer must wait for 'drain'. */
class HeldReader extends Writable {
  text = '';
  private holding = true;
  private readonly held: Array<() => void> = [];
  constructor() {
    super({ highWaterMark: 1024 });
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.text += chunk.toString('utf8');
    if (this.holding) this.held.push(() => done());
    else done();
  }
  release(): void {
    this.holding = false;
    for (const done of this.held.splice(0)) done();
  }
}

/** Runs the command with the held reader; once its first page is written, waits a while, counts, then releases. */
async function heldRun(
  argv: string[],
  route: string,
): Promise<{ whileHeld: number; total: number; text: string; code: number }> {
  const stdout = new HeldReader();
  const before = charged(route);
  const run = runCli(argv, { env: sandboxEnv(sb.get()), stdout });
  await until('the first page written', () => stdout.text.length > 0);
  // Time for any page the run would send ahead to reach the sandbox, which charges on arrival.
  await new Promise((resolve) => setTimeout(resolve, 400));
  const whileHeld = charged(route) - before;
  stdout.release();
  const res = await run;
  return { whileHeld, total: charged(route) - before, text: stdout.text, code: res.code };
}

describe('paging runs wait for a reader that does not keep up', () => {
  it('search --all: nothing more is bought while page 1 waits on the reader; released, every page comes', async () => {
    const res = await heldRun(
      ['search', '--platform', 'instagram', '--all', '--max-results', '200', '--format', 'jsonl', '--no-store'],
      '/public/v1/discovery/',
    );
    expect(res.code).toBe(0);
    expect(res.whileHeld).toBe(1);
    expect(res.total).toBe(4);
    const ids = res.text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { user_id: string }).user_id);
    expect(new Set(ids).size).toBe(200);
  });

  it('api --paginate on a billed cursor route: the next page waits for the reader too', async () => {
    const handle = sb.get().state.creators.list('instagram')[0]!.profile.username;
    const argv = [
      'api',
      'creators/content/posts',
      '-f',
      'platform=instagram',
      '-f',
      `handle=${handle}`,
      '--paginate',
      '--max-pages',
      '3',
      '--format',
      'jsonl',
      '--no-store',
    ];
    const res = await heldRun(argv, '/public/v1/creators/content/posts/');
    expect(res.code).toBe(0);
    expect(res.whileHeld).toBe(1);
    expect(res.total).toBe(3);
  });

  it('posts --all and post --kind comments --all: the next page waits for the reader', async () => {
    const handle = sb.get().state.creators.list('instagram')[0]!.profile.username;
    const posts = await heldRun(
      ['posts', handle, '--platform', 'instagram', '--all', '--max-pages', '3', '--format', 'jsonl', '--no-store'],
      '/public/v1/creators/content/posts/',
    );
    expect(posts.code).toBe(0);
    expect(posts.whileHeld).toBe(1);
    expect(posts.total).toBe(3);
    const comments = await heldRun(
      [
        'post',
        'C1a2B3c4D5e',
        '--platform',
        'instagram',
        '--kind',
        'comments',
        '--all',
        '--max-pages',
        '3',
        '--format',
        'jsonl',
        '--no-store',
      ],
      '/public/v1/creators/content/details/',
    );
    expect(comments.code).toBe(0);
    expect(comments.whileHeld).toBe(1);
    expect(comments.total).toBeGreaterThanOrEqual(2);
  });
});
