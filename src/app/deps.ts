import type { Secrets } from '../lib/http/redact.js';
import type { Io } from '../lib/io/streams.js';
import type { StartPager } from '../lib/io/pager-process.js';
import type { Dispatcher } from 'undici';

/**
 * Everything from the outside world a command needs, injected once (house style: one context).
 * Members that cost something to build (the HTTP dispatcher) are created lazily by their users.
 */
export interface Deps {
  io: Io;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects when `signal` aborts. Tests pass one that returns at once. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** undici dispatcher override (a MockAgent in tests). Default: a keep-alive Agent, or a proxy agent. */
  dispatcher?: Dispatcher | undefined;
  /** Directory holding config.json; overrides XDG (tests isolate the store here). */
  configDir?: string | undefined;
  /** Opens a URL in a browser. */
  openBrowser?: ((url: string) => Promise<void>) | undefined;
  /**
   * Starts a pager for long output on a terminal (production: the command line through the shell,
   * stdio [pipe, inherit, inherit]). Absent, nothing is paged: tests page only when they pass one.
   */
  startPager?: StartPager | undefined;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal | undefined;
  /**
   * How long a request waits before a spinner shows on a terminal (default 300 ms). Tests pass
   * `Infinity` (never) unless the spinner is what they test: on a loaded machine a loopback request can
   * take longer than 300 ms, and frames would land in their stderr.
   */
  waitSpinnerDelayMs?: number | undefined;
  /**
   * The credentials this run has seen, redacted from every message (errors included, which `main`
   * prints after the command's own Context is gone). `main` creates one per run when absent.
   */
  secrets?: Secrets | undefined;
  /** The platform the drawing rule reads (lib/io/charset.ts); default process.platform. Tests pass win32. */
  platform?: NodeJS.Platform | undefined;
}

/** The default `sleep`: a timer that an AbortSignal can cut short. */
export function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
