/**
 * Results sized for a model's context: a small answer is given whole; a large one as a summary and its first
 * rows, the whole of it kept in the file the CLI's writer made (the -o formats) and served as an MCP resource.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CliError } from '../../lib/errors.js';
import { parseJson, stringifyJson } from '../../lib/exact-json.js';
import { escapeControls, escapeJsonC1 } from '../../lib/io/safe-text.js';
import { writerGone } from '../../lib/io/atomic-file.js';

/** Answers up to this many characters (about 3,000 tokens) are given whole. */
export const INLINE_CHARS = 12_000;
/** Rows shown from a larger answer. */
export const FIRST_ROWS = 5;

/** A session's folder of whole results is kept this long after its last write, for a client that reads it later. */
export const RESULTS_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The folder of this session's whole results: under the user's cache folder (not a shared /tmp), only the
 * user can enter it (0700; the CLI's writer makes each file 0600). Folders of earlier sessions whose server is
 * gone and that were last written more than a day ago are removed first, so results do not pile up.
 */
export function openResultsDir(env: Record<string, string | undefined>, now: number, pid = process.pid): string {
  const cache = join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'creators', 'mcp-results');
  // A cache folder that cannot be made (a file in its place, a read-only home): the user's own folder in the system's temp.
  const fallback = join(tmpdir(), `creators-mcp-results-${process.getuid?.() ?? 'user'}`);
  let reason: unknown;
  for (const base of [cache, fallback]) {
    try {
      mkdirSync(base, { recursive: true, mode: 0o700 });
      chmodSync(base, 0o700);
      prune(base, now, pid);
      return mkdtempSync(join(base, `${pid}-`));
    } catch (err) {
      reason ??= err;
    }
  }
  throw new CliError(`Cannot make a folder for large results in ${cache}: ${(reason as Error).message}.`, 1, {
    hint: 'Set XDG_CACHE_HOME to a folder you can write.',
  });
}

function prune(base: string, now: number, pid: number): void {
  for (const name of readdirSync(base)) {
    const owner = Number(/^(\d+)-/.exec(name)?.[1]);
    try {
      const writtenAt = statSync(join(base, name)).mtimeMs;
      // A live server's folder stays, however old (written long ago, it may still be read); a gone one's once it
      // is a day old.
      if (Number.isInteger(owner) && owner !== pid && !writerGone(owner)) continue;
      if (now - writtenAt > RESULTS_KEPT_MS) rmSync(join(base, name), { recursive: true, force: true });
    } catch {
      // Another server pruning the same folder at once: it is gone either way.
    }
  }
}

export const RESULT_URI_TEMPLATE = 'creators://results/{name}';

export function resultUri(name: string): string {
  return `creators://results/${encodeURIComponent(name)}`;
}

export interface Presented {
  text: string;
  /** Kept when the answer was too big to give whole. */
  file?: { name: string; path: string; summary: string } | undefined;
}

/**
 * What a tool result shows of the data the command wrote to `path` (`stdout`: what it printed instead, when it
 * wrote no file). The writers have already made the text safe: JSON escapes control, C1 and format characters;
 * CSV and TSV lines shown here go through the terminal's sanitiser.
 */
export function presentFile(path: string, format: string, stdout: string): Presented {
  if (!existsSync(path)) return { text: stdout.trim() === '' ? '(no data)' : escapeControls(stdout.trim()) };
  const text = readFileSync(path, 'utf8');
  if (text.length <= INLINE_CHARS) {
    unlinkSync(path);
    return { text: text.trim() === '' ? '(no data)' : safe(text.trimEnd(), format) };
  }
  const kb = Math.ceil(statSync(path).size / 1024);
  const name = basename(path);
  let count: string;
  let first: string;
  if (format === 'json') {
    const data = parseJson(text);
    if (Array.isArray(data)) {
      count = `${data.length} ${data.length === 1 ? 'record' : 'records'}`;
      first = fitted(data, (rows) => escapeJsonC1(stringifyJson(rows, 2)));
    } else {
      count = 'one record';
      first = `${text.slice(0, INLINE_CHARS)}\n... (cut at ${INLINE_CHARS} characters)`;
    }
  } else {
    const lines = text.split('\n').filter((l) => l !== '');
    const header = format === 'csv' || format === 'tsv' ? 1 : 0;
    const rows = lines.length - header;
    count = `${rows} ${rows === 1 ? 'line' : 'lines'}${header ? ' after the header' : ''}`;
    first = fitted(lines.slice(header), (shown) => safe([...lines.slice(0, header), ...shown].join('\n'), format));
  }
  const summary = `${count}, ${kb} KB of ${format}`;
  const text2 =
    `The result is too big to show whole: ${summary}. The first rows:\n${first}\n` +
    `The whole result: ${path} (resource ${resultUri(name)}).`;
  return { text: text2, file: { name, path, summary } };
}

/**
 * Text for a model as for a person: JSON as the writer escaped it (control, C1 and format characters as `\u`
 * escapes, the same data); csv and tsv, which the writer keeps exact, through the terminal's sanitiser.
 */
export function safe(text: string, format: string): string {
  return format === 'json' || format === 'jsonl' ? escapeJsonC1(text) : escapeControls(text);
}

/** The first rows, fewer if they would not fit the inline size. */
function fitted<T>(rows: readonly T[], show: (rows: readonly T[]) => string): string {
  for (let n = Math.min(FIRST_ROWS, rows.length); n >= 1; n--) {
    const text = show(rows.slice(0, n));
    if (text.length <= INLINE_CHARS) return text;
  }
  return `${show(rows.slice(0, 1)).slice(0, INLINE_CHARS)}\n... (cut)`;
}
