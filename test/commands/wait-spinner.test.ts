import { Agent, Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';

import { setFaults } from '../../src/sandbox/faults/engine.js';
import { parseFaultSpec } from '../../src/sandbox/faults/rules.js';
import { runCli, type RunOptions } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { screen, SPINNER_FRAMES } from '../helpers/screen.js';

/**
 * The spinner of a slow request, through a whole command on a (fake) terminal: the request is held
 * until the spinner has been drawn (no timing involved), then answered. What the terminal would show at
 * the end is checked with a small emulator: the table and the notices, and no spinner left anywhere.
 */
const sb = useSandbox({ seed: 5 });

/** Passes requests on only once `gate` resolves: the server "takes" as long as the test needs. */
class GatedDispatcher extends Dispatcher {
  constructor(
    private readonly inner: Dispatcher,
    private readonly gate: Promise<void>,
  ) {
    super();
  }
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    void this.gate.then(() => this.inner.dispatch(options, handler));
    return true;
  }
  override close(): Promise<void> {
    return this.inner.close();
  }
  override destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Runs a command on a terminal whose requests are held until a spinner frame is on stderr. */
async function runHeldUntilSpinner(
  argv: string[],
  options: RunOptions = {},
): Promise<Awaited<ReturnType<typeof runCli>> & { shownBeforeAnswer: string }> {
  let stderrSoFar = '';
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let shownBeforeAnswer = '';
  const res = await runCli(argv, {
    env: sandboxEnv(sb.get()),
    tty: true,
    ttyStreams: true,
    waitSpinnerDelayMs: 0,
    dispatcher: new GatedDispatcher(new Agent(), gate),
    onStderr: (text) => {
      stderrSoFar += text;
      if (SPINNER_FRAMES.test(stderrSoFar) && shownBeforeAnswer === '') {
        shownBeforeAnswer = stderrSoFar;
        open();
      }
    },
    ...options,
  });
  return { ...res, shownBeforeAnswer };
}

describe('a spinner while a request waits, on a terminal', () => {
  it('search: "Searching…" shows while the answer is awaited, and is erased before the table', async () => {
    const res = await runHeldUntilSpinner(['search', '--platform', 'instagram', '--limit', '3', '--no-color']);
    expect(res.code).toBe(0);
    expect(screen(res.shownBeforeAnswer)).toEqual([expect.stringMatching(/^. Searching…$/)]);
    const shown = screen(res.combined);
    expect(shown.join('\n')).not.toMatch(SPINNER_FRAMES);
    expect(shown.join('\n')).not.toContain('Searching…');
    expect(shown[0]).toMatch(/^┌─/);
    expect(shown.filter((l) => /^│ \w/.test(l))).toHaveLength(4);
    expect(shown.at(-2)).toMatch(/^Spent 0\.03 credits on 3 creators \(1 page\)/);
  });

  it('a retry notice during the spinner is a whole line of its own, and the spinner is gone at the end', async () => {
    // The sandbox answers the next search with a 429 (Retry-After 3): the client waits and says so.
    setFaults(sb.get().state, parseFaultSpec('429:3 POST /public/v1/discovery/ count=1'));
    const res = await runHeldUntilSpinner(['search', '--platform', 'instagram', '--limit', '3', '--no-color']);
    expect(res.code).toBe(0);
    const shown = screen(res.combined);
    expect(shown.join('\n')).not.toMatch(SPINNER_FRAMES);
    // The notice on lines of its own (broken at spaces to the width), the table below it.
    const table = shown.findIndex((l) => /^┌─/.test(l));
    expect(shown.slice(0, table).join(' ')).toMatch(
      /^Rate limited \(HTTP 429\): Request was throttled\. Expected available in 3 seconds.*; retrying in 3 s \(attempt 2 of 4\)\.$/,
    );
    expect(shown.some((l) => /^┌─/.test(l))).toBe(true);
  });

  it.each([
    ['stderr is piped', { stderrTTY: false }],
    ['--quiet', {}, ['--quiet']],
    ['--debug', {}, ['--debug']],
  ] as const)('no spinner when %s', async (_why, options: RunOptions, extra: readonly string[] = []) => {
    // The request is answered at once here; if a spinner could show, a delay of 0 would have drawn one.
    const res = await runCli(['search', '--platform', 'instagram', '--limit', '2', '--no-color', ...extra], {
      env: sandboxEnv(sb.get()),
      tty: true,
      ttyStreams: true,
      waitSpinnerDelayMs: 0,
      ...options,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).not.toMatch(SPINNER_FRAMES);
    expect(res.stderr).not.toContain('Searching…');
  });

  it('no spinner for an answer quicker than the delay', async () => {
    const res = await runCli(['credits', '--no-color'], {
      env: sandboxEnv(sb.get()),
      tty: true,
      ttyStreams: true,
      waitSpinnerDelayMs: 60_000,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
  });
});
