/**
 * The pager for long output on a terminal, as gh does it: `$CREATORS_PAGER`, the profile's `pager`
 * setting, `$PAGER`, else `less -FRX` (with `LESS=FRX` when LESS is unset, so output that fits a
 * screen is shown as if there were no pager). Only data going to a terminal's stdout through a
 * printer's sink is paged: `-o`, pipes, `--no-pager`, and commands that write to stdout themselves
 * (`events tail`, the `sandbox` banner's wait) are not.
 *
 * The sink holds the output until the printer commits it, then starts the pager, writes, closes its
 * input and waits for it to exit: nothing else (notices, the spend summary, an error) reaches the
 * terminal while the pager owns it, and every record was received before the pager started. Output
 * larger than `STREAM_AFTER_BYTES` starts the pager early and streams into it; quitting the pager
 * then stops the command (`PagerClosedError`, exit 0), so a paging run buys no further page.
 */
import type { Writable } from 'node:stream';
import { PagerClosedError } from '../errors.js';
import type { Terminal } from '../io/terminal.js';

/** A started pager: its standard input, and its exit. */
export interface PagerProcess {
  stdin: Writable;
  /** Resolves when the pager has exited, however it exited; never rejects. */
  exited: Promise<void>;
}

/**
 * Starts a pager command line (shell syntax) with `env`, its stdout and stderr the terminal's.
 * Rejects (an error with `code: 'ENOENT'`) when the program cannot be found or started.
 */
export type StartPager = (command: string, env: Record<string, string | undefined>) => Promise<PagerProcess>;

/** The pager a run uses: set in the output settings only when output is to be paged. */
export interface Pager {
  command: string;
  env: Record<string, string | undefined>;
  start: StartPager;
  /**
   * The user named it (CREATORS_PAGER, the setting, PAGER). Only then is a pager that cannot be found
   * worth a warning: the default `less` missing (a minimal container, Windows) just means no pager.
   */
  chosen?: boolean | undefined;
  /** Bytes held before the pager is started anyway (default `STREAM_AFTER_BYTES`). */
  streamAfterBytes?: number | undefined;
  /**
   * Set by `pageOnce`: the stdout sinks of one screen share this one paged output (opened by the first
   * of them), so its parts reach one pager in order; committed when the screen is complete.
   */
  shared?: SharedPage | undefined;
}

/** One screen's paged output (opened by its first part) and the notes to print once it has been paged. */
export interface SharedPage {
  output?: PagedOutput;
  after: (() => void)[];
}

/** Output held in memory before the pager is started anyway and the rest streamed into it (4 MiB). */
export const STREAM_AFTER_BYTES = 4 * 1024 * 1024;

/** The pager when the user named none. */
const DEFAULT_PAGER = 'less -FRX';

/** What decides whether, and through what, output is paged. */
export interface PagerInputs {
  stdoutIsTTY: boolean;
  /** Data goes to an `-o` file. */
  toFile: boolean;
  /** `--no-pager` gives false. */
  flag: boolean | undefined;
  env: Record<string, string | undefined>;
  /** The profile's `pager` setting: a command line, `true`, or `false`. */
  setting: string | undefined;
  /** How to start one; without it (tests, unless they pass one) nothing is paged. */
  start: StartPager | undefined;
}

/** The pager of this run, or undefined when output is not paged. */
export function choosePager(inputs: PagerInputs): Pager | undefined {
  if (inputs.start === undefined || !inputs.stdoutIsTTY || inputs.toFile || inputs.flag === false) return undefined;
  const command = pagerCommand(inputs.env, inputs.setting);
  if (command === undefined) return undefined;
  return { command, env: pagerEnv(inputs.env), start: inputs.start, chosen: command !== DEFAULT_PAGER };
}

/**
 * The pager command line: CREATORS_PAGER > the profile setting > PAGER > `less -FRX`. Empty or `cat`
 * (and the setting `false`) means no pager; the setting `true` means the default. With `TERM=dumb`, only
 * CREATORS_PAGER or the setting.
 */
export function pagerCommand(env: Record<string, string | undefined>, setting: string | undefined): string | undefined {
  const fromSetting = setting === undefined || setting.trim() === 'true' ? undefined : setting.trim() === 'false' ? '' : setting;
  // A dumb terminal (Emacs shell, IDE consoles) cannot run less ("Press RETURN"): paged only through a pager
  // named for this program, never through PAGER or the default.
  const fallback = env.TERM === 'dumb' ? '' : (env.PAGER ?? DEFAULT_PAGER);
  const raw = (env.CREATORS_PAGER ?? fromSetting ?? fallback).trim();
  return raw === '' || raw === 'cat' ? undefined : raw;
}

/** The pager's environment: less and lv told to pass colours and to quit on output that fits (gh's defaults). */
export function pagerEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' };
}

/** The stdout half of a sink when output is paged. */
export interface PagedOutput {
  /** Holds the chunk (or writes it to a pager already started); rejects with `PagerClosedError` once the pager is gone. */
  write(chunk: string | Buffer): Promise<void>;
  /** Pages what was held, closes the pager's input and waits for it to exit. Quitting early is not an error. */
  commit(): Promise<void>;
  /** As commit (what was printed before the failure is shown, as on a plain terminal); never throws. */
  abort(): Promise<void>;
}

/**
 * Runs `body` with output settings whose stdout sinks share one pager: a command that prints one
 * screen in several parts (a summary table, a heading, a list) pages it once, all parts in order,
 * instead of one pager per part. Without a pager (a pipe, `-o`, `--no-pager`), or inside another
 * `pageOnce`, `body` gets the settings as they are.
 */
export async function pageOnce<S extends { pager?: Pager | undefined }, T>(
  settings: S,
  body: (settings: S) => Promise<T>,
): Promise<T> {
  if (settings.pager === undefined || settings.pager.shared !== undefined) return body(settings);
  const shared: SharedPage = { after: [] };
  let result: T;
  try {
    result = await body({ ...settings, pager: { ...settings.pager, shared } });
  } catch (err) {
    await shared.output?.abort();
    for (const note of shared.after) note();
    throw err;
  }
  await shared.output?.commit();
  for (const note of shared.after) note();
  return result;
}

/**
 * Paged stdout. `direct` writes to the real stdout: used when the pager cannot be started (after one
 * warning line on stderr when the user chose that pager).
 */
export function pagedOutput(
  io: Terminal,
  pager: Pager,
  direct: (chunk: string | Buffer) => Promise<void>,
): PagedOutput {
  const streamAfterBytes = pager.streamAfterBytes ?? STREAM_AFTER_BYTES;
  let held: (string | Buffer)[] = [];
  let heldBytes = 0;
  let target: PagerProcess | 'direct' | undefined;
  let gone = false;
  let done = false;

  const start = async (): Promise<void> => {
    try {
      target = await pager.start(pager.command, pager.env);
      target.stdin.on('error', () => {});
      void target.exited.then(() => {
        gone = true;
      });
    } catch (err) {
      target = 'direct';
      if (pager.chosen === false) return;
      const why = (err as { code?: unknown }).code === 'ENOENT' ? 'not found' : ((err as Error).message ?? String(err));
      io.warn(`cannot start the pager '${pager.command}' (${why}); writing directly. Set CREATORS_PAGER, or use --no-pager.`);
    }
  };

  const send = async (chunk: string | Buffer): Promise<void> => {
    if (target === 'direct') return direct(chunk);
    if (gone || target === undefined) throw new PagerClosedError();
    const stdin = target.stdin;
    await new Promise<void>((resolve, reject) => {
      const fail = (): void => {
        gone = true;
        reject(new PagerClosedError());
      };
      if (stdin.destroyed || stdin.writableEnded) {
        fail();
        return;
      }
      // EPIPE (the pager quit) arrives as an error or a close; either way the pager is gone.
      const onError = (): void => {
        cleanup();
        fail();
      };
      const onDrain = (): void => {
        cleanup();
        resolve();
      };
      const cleanup = (): void => {
        stdin.off('error', onError);
        stdin.off('close', onError);
        stdin.off('drain', onDrain);
      };
      stdin.on('error', onError);
      stdin.on('close', onError);
      if (stdin.write(chunk)) onDrain();
      else stdin.once('drain', onDrain);
    });
  };

  const flushHeld = async (): Promise<void> => {
    const chunks = held;
    held = [];
    heldBytes = 0;
    for (const chunk of chunks) await send(chunk);
  };

  const finish = async (): Promise<void> => {
    if (done) return;
    done = true;
    // The wait spinner's line is erased before the pager takes the screen.
    io.clearLive();
    if (target === undefined) {
      if (heldBytes === 0) return; // nothing to show: no pager
      await start();
    }
    try {
      await flushHeld();
    } catch (err) {
      // The user quit the pager while reading: they have what they wanted.
      if (!(err instanceof PagerClosedError)) throw err;
    }
    if (target !== 'direct' && target !== undefined) {
      target.stdin.end();
      // The terminal is given back before anything else is printed.
      await target.exited;
    }
  };

  return {
    async write(chunk) {
      if (target === undefined) {
        held.push(chunk);
        heldBytes += chunk.length;
        if (heldBytes < streamAfterBytes) return;
        await start();
        await flushHeld();
        return;
      }
      await send(chunk);
    },
    commit: finish,
    async abort() {
      await finish().catch(() => {});
    },
  };
}
