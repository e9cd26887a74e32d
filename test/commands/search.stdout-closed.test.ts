import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 10 });
const env = () => sandboxEnv(sb.get());
const discoveryCharges = () => sb.get().state.ledger.charges.filter((c) => c.route === '/public/v1/discovery/').length;

/** A stdout whose reader goes away after the first chunk, as `| head -1` does: every later write fails with EPIPE. */
class HeadOne extends Writable {
  first = '';
  writes = 0;
  /** Discovery pages charged when the first write failed: the moment the run can know nobody reads. */
  chargedAtClose: number | undefined;
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.writes++ === 0) {
      this.first = chunk.toString('utf8');
      done();
    } else {
      this.chargedAtClose ??= discoveryCharges();
      done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    }
  }
}

describe('search --all | head -1 (issue 26 item 10)', () => {
  it('once stdout is closed no new page is bought, and the run ends quietly (exit 0)', async () => {
    const stdout = new HeadOne();
    const before = discoveryCharges();
    const res = await runCli(['search', '--platform', 'instagram', '--all', '--format', 'csv'], { env: env(), stdout });
    expect(stdout.first.split('\n')[0]).toMatch(/^user_id,profile\.username/);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    // 12,000 matches: without the stop it would buy 240 pages. Pages on their way when the write failed
    // (the next one is sent while a page is written, a few more at once once the total is known) may
    // finish; none is sent after it.
    expect(stdout.chargedAtClose).toBeDefined();
    const bought = discoveryCharges() - before;
    expect(bought).toBeLessThanOrEqual(4);
    expect(bought - (stdout.chargedAtClose! - before)).toBeLessThanOrEqual(2);
  });
});
