/**
 * search --all against a sandbox whose Discovery pages take 400 ms, paced at 600/min (a window of about 5): the pages a sequential run is
 * certain to buy go out several at once (the window is sized from the pace and the observed latency),
 * and the money rules hold as for sequential paging: the ledger equals the spend reported, every paid
 * creator is in the output, which is the prefix of a complete run, on 402 and on Ctrl-C too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { runCli, type RunResult } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { reportedSpendMilli } from '../reliability/helpers.js';
import { expectInPageOrder } from './helpers.js';

const BASE: SandboxOptions = {
  seed: 57,
  rateLimit: 100_000,
  credits: 10_000,
  dailyDiscoveryLimit: 10_000,
  latency: 'discovery=400ms',
};
const PRICE_MILLI = 10;

async function search(options: SandboxOptions = {}, interruptAfterCharges?: number, perMinute = 600) {
  // Each Discovery reply: [arrival, reply] in wall time, from the sandbox's log line (`... 200 201ms`).
  const spans: [number, number][] = [];
  const sb = await startSandbox({
    port: 0,
    ...BASE,
    ...options,
    log: (line) => {
      const m = /^POST \/public\/v1\/discovery\/ \d{3} (\d+)ms$/.exec(line);
      if (m) spans.push([Date.now() - Number(m[1]), Date.now()]);
    },
  });
  try {
    const out = join(tempDir('creators-cpages-'), 'out.json');
    const controller = new AbortController();
    let poll: NodeJS.Timeout | undefined;
    if (interruptAfterCharges !== undefined) {
      poll = setInterval(() => {
        if (sb.state.ledger.charges.length >= interruptAfterCharges) {
          clearInterval(poll);
          controller.abort();
        }
      }, 5);
    }
    const res: RunResult = await runCli(
      ['search', '--platform', 'instagram', '--all', '--limit', '20', '--max-results', '400', '-o', out],
      {
        env: sandboxEnv(sb, { CREATORS_RATE_LIMIT: String(perMinute) }),
        stderrTTY: true,
        signal: controller.signal,
        // The real clock: the client measures the sandbox's latency to size its window.
        now: Date.now,
      },
    );
    clearInterval(poll);
    const records = existsSync(out)
      ? (JSON.parse(readFileSync(out, 'utf8')) as { profile: { username: string } }[]).map((r) => r.profile.username)
      : [];
    // The most Discovery requests the sandbox held at once.
    let peak = 0;
    for (const [at] of spans) peak = Math.max(peak, spans.filter(([a, b]) => a <= at && at < b).length);
    return { res, records, ledgerMilli: sb.state.ledger.usedMilli, pages: sb.state.ledger.charges.length, peak };
  } finally {
    await sb.close();
  }
}

describe('search --all with pages fetched concurrently', () => {
  let whole: string[] = [];

  it('a complete run: several pages at once, exactly the 20 pages a sequential run buys, in order', async () => {
    const r = await search();
    expect(r.res.code, r.res.stderr).toBe(0);
    expect(r.records).toHaveLength(400);
    expect(new Set(r.records).size).toBe(400);
    expect(r.pages).toBe(20);
    expect(r.ledgerMilli).toBe(400 * PRICE_MILLI);
    expect(reportedSpendMilli(r.res.stderr)).toBe(r.ledgerMilli);
    expect(r.peak).toBeGreaterThan(1);
    whole = r.records;
  });

  it('402 part-way: exit 5, every paid creator kept, the prefix of the complete run, the spend reported', async () => {
    const r = await search({ credits: 2.5 });
    const context = `exit ${r.res.code}\n${r.res.stderr}`;
    expect(r.res.code, context).toBe(5);
    expect(r.ledgerMilli, context).toBe(reportedSpendMilli(r.res.stderr));
    expect(r.records.length * PRICE_MILLI, context).toBe(r.ledgerMilli);
    expectInPageOrder(r.records, whole, context);
    expect(r.records.length).toBeGreaterThan(0);
    expect(r.res.stderr).toMatch(/Spent [\d.,]+ credits? in this run; /);
  });

  it('Ctrl-C part-way: exit 130, the pages in flight finished and kept, the prefix of the complete run', async () => {
    // Paced at 120/min (a page each 0.5 s), so the pages left are more than any window holds when the Ctrl-C lands: at
    // 600/min a loaded machine measured a latency long enough to send all 20 at once, and the run bought them all.
    const r = await search({}, 4, 120);
    const context = `exit ${r.res.code}\n${r.res.stderr}`;
    expect(r.res.code, context).toBe(130);
    expect(r.ledgerMilli, context).toBe(reportedSpendMilli(r.res.stderr));
    expect(r.records.length * PRICE_MILLI, context).toBe(r.ledgerMilli);
    expectInPageOrder(r.records, whole, context);
    expect(r.records.length).toBeLessThan(400);
  });
});
