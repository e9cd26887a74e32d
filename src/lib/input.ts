/**
 * Adapters from a Context to the one input opener (`io/input.ts`), for callers not yet given the
 * narrow `InputPorts`.
 */
import type { Context } from '../app/context.js';
import { readInputJson, readInputText, type InputPorts } from './io/input.js';

/** The input ports of a context. */
function inputPorts(ctx: Context): InputPorts {
  return { cwd: ctx.deps.cwd, stdin: ctx.io.stdin, stdinIsTTY: ctx.io.stdinIsTTY };
}

/** Reads a whole file (or stdin for `-`) as UTF-8; an unreadable file is a usage error. */
export async function readAllText(ctx: Context, source: string, flag = 'input'): Promise<string> {
  return readInputText(inputPorts(ctx), source, flag);
}

/** Reads and parses JSON from a file or stdin; malformed JSON is a usage error with its position. */
export async function readJson(ctx: Context, source: string, flag: string): Promise<unknown> {
  return readInputJson(inputPorts(ctx), source, flag);
}
