/**
 * The pager, as gh does it. Only data to a terminal's stdout through a printer's sink is paged. The output is
 * held until the printer commits it and the pager exits before anything else is printed, so no notice or
 * error lands inside it. Output past `STREAM_AFTER_BYTES` starts the pager early and streams into it; quitting
 * it then stops the command (`PagerClosedError`, exit 0), so a paging run buys no further page.
 */
import { PagerClosedError } from '../errors.js';
import type { Terminal } from '../io/terminal.js';
import type { PagerProcess, StartPager } from '../io/pager-process.js';

export interface Pager {
  command: string;
  env: Record<string, string | undefined>;
  start: StartPager;
  /** The user named it: only then is a missing pager worth a warning (no `less` in a container just means no pager). */
  chosen?: boolean | undefined;
  streamAfterBytes?: number | undefined;
  /** Set by `pageOnce`: the parts of one screen reach one pager in order. */
  shared?: SharedPage | undefined;
}

export interface SharedPage {
  output?: PagedOutput;
  after: (() => void)[];
}

export const STREAM_AFTER_BYTES = 4 * 1024 * 1024;

const DEFAULT_PAGER = 'less -FRX';

export interface PagerInputs {
  stdoutIsTTY: boolean;
  toFile: boolean;
  flag: boolean | undefined;
  env: Record<string, string | undefined>;
  setting: string | undefined;
  /** Without it (tests) nothing is paged. */
  start: StartPager | undefined;
}

export function choosePager(inputs: PagerInputs): Pager | undefined {
  if (inputs.start === undefined || !inputs.stdoutIsTTY || inputs.toFile || inputs.flag === false) return undefined;
  const command = pagerCommand(inputs.env, inputs.setting);
  if (command === undefined) return undefined;
  return { command, env: pagerEnv(inputs.env), start: inputs.start, chosen: command !== DEFAULT_PAGER };
}

/** CREATORS_PAGER > the profile setting > PAGER > `less -FRX`; empty or `cat` (and the setting `false`) means none. */
export function pagerCommand(env: Record<string, string | undefined>, setting: string | undefined): string | undefined {
  const fromSetting =
    setting === undefined || setting.trim() === 'true' ? undefined : setting.trim() === 'false' ? '' : setting;
  // A dumb terminal (Emacs shell, IDE consoles) cannot run less: only a pager named for this program.
  const fallback = env.TERM === 'dumb' ? '' : (env.PAGER ?? DEFAULT_PAGER);
  const raw = (env.CREATORS_PAGER ?? fromSetting ?? fallback).trim();
  return raw === '' || raw === 'cat' ? undefined : raw;
}

/** less and lv pass colours and quit on output that fits a screen (gh's defaults). */
export function pagerEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' };
}

export interface PagedOutput {
  write(chunk: string | Buffer): Promise<void>;
  /** Quitting the pager early is not an error. */
  commit(): Promise<void>;
  /** As commit (what was printed before a failure is shown, as on a plain terminal); never throws. */
  abort(): Promise<void>;
}

/** A screen printed in several parts (a summary table, a heading, a list) is paged once, not once per part. */
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

/** `direct` writes to the real stdout, used when the pager cannot be started. */
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
      io.warn(
        `cannot start the pager '${pager.command}' (${why}); writing directly. Set CREATORS_PAGER, or use --no-pager.`,
      );
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
    io.clearLive();
    if (target === undefined) {
      if (heldBytes === 0) return;
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
