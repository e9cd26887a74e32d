/**
 * Exclusion lists as Discovery uses them: handles read from a file or stdin, the free check of
 * `--exclude-list` ids, and the `exclusions add|remove` workflow (gate, chunks, notice, print).
 */
import { changeEntries, changeEntriesPlan, entryRequests, listExclusionLists, parseListRef, type ListRef } from '../api/exclusions.js';
import type { Plan } from '../api/plan.js';
import { UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { detectColumn } from '../csv/detect.js';
import { csvReadOptions, readCsv, type CsvReadOptions } from '../csv/read.js';
import { openInput, type InputPorts } from '../io/input.js';
import type { Io } from '../io/streams.js';
import type { Notices } from '../io/terminal.js';
import { printItem, type ColumnSpec, type OutputSettings } from '../output/index.js';
import { MAX_EXCLUDE_HANDLES } from './filters.js';
import { countText, plural } from '../output/humanize.js';

/** Table columns of an exclusion list object. */
export const LIST_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'id', kind: 'number', keep: true },
  { path: 'name', header: 'name', kind: 'text' },
  { path: 'platform', header: 'platform', whole: true, priority: 1 },
  { path: 'is_default', header: 'default', kind: 'bool' },
  { path: 'handle_count', header: 'handles', kind: 'count' },
  { path: 'updated_at', header: 'updated', kind: 'date' },
];

/**
 * Reads handles from a file or stdin (`-`) through the one CSV reader: one per line, or the handle column
 * of a CSV (a `handle`/`username` header, else detected). Blank lines and `#` comments are skipped;
 * exact duplicates (ignoring case) are kept once.
 */
export async function readHandleLines(input: InputPorts & Partial<Pick<Notices, 'notice'>>, source: string, flag: string, csv: CsvReadOptions = {}): Promise<string[]> {
  const stream = await openInput(input, source, flag);
  let rows: AsyncIterable<string[]>;
  let index: number;
  try {
    const read = await readCsv(stream, source, { ...csv, comments: true, header: 'names', kindHint: 'handle', notice: input.notice?.bind(input) });
    index = detectColumn(read.header, read.sample, 'handle').index;
    rows = read.rows;
  } catch (err) {
    // An empty list is a list of no handles.
    if (err instanceof UsageError && /holds no rows/.test(err.message)) return [];
    throw err;
  }
  const values: string[] = [];
  for await (const row of rows) values.push(row[index] ?? '');
  return uniqueHandles(values);
}

/** The input ports alone (the terminal object's getters copied into a plain object). */
function portsOf(input: InputPorts): InputPorts {
  return { cwd: input.cwd, stdin: input.stdin, stdinIsTTY: input.stdinIsTTY };
}

/** Trimmed, without blanks or `#` comments, each once (ignoring case), in first-seen order. */
export function uniqueHandles(values: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const key = line.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(line);
  }
  return out;
}

/** Handles for `--exclude-handles`: more than 10,000 is a usage error, as the API would refuse them. */
export async function readExcludeHandles(
  input: InputPorts & Partial<Pick<Notices, 'notice'>>,
  source: string,
  flag = '--exclude-handles',
  csv: CsvReadOptions = {},
): Promise<string[]> {
  const out = await readHandleLines(input, source, flag, csv);
  if (out.length > MAX_EXCLUDE_HANDLES) {
    throw new UsageError(`${flag} holds ${plural(out.length, 'handle')}; the API takes at most ${countText(MAX_EXCLUDE_HANDLES)}.`, {
      hint: 'Put them in an exclusion list (creators exclusions add <list> --file ...) and use --exclude-list.',
    });
  }
  return out;
}

/**
 * The real API skips unknown or other-platform exclusion-list ids silently and still charges, so
 * they are checked first with one free GET of all lists: an id that does not exist, or belongs to
 * another platform, is a usage error and nothing billable is sent.
 */
export async function checkExclusionLists(http: HttpClient, platform: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const lists = await listExclusionLists(http, { inputCheck: true });
  const byId = new Map(lists.map((l) => [Number(l.id), l]));
  for (const id of ids) {
    const list = byId.get(id);
    if (!list) {
      throw new UsageError(`Exclusion list ${id} does not exist; nothing was sent.`, { hint: 'See `creators exclusions list`.' });
    }
    if (String(list.platform).toLowerCase() !== platform) {
      throw new UsageError(`Exclusion list ${id} ('${String(list.name)}') is for ${String(list.platform)}, not ${platform}; nothing was sent.`, {
        hint: `See \`creators exclusions list --platform ${platform}\`.`,
      });
    }
  }
}

/** The handles to add or remove (`uniqueHandles`); none is a usage error. */
export function handlesToChange(values: Iterable<string>, action: 'add' | 'remove'): string[] {
  const handles = uniqueHandles(values);
  if (handles.length === 0) throw new UsageError(`No handles to ${action}.`, { hint: 'Give handles as arguments, or --file <file|-> with one per line.' });
  return handles;
}

/** What adding or removing handles needs: the HTTP client, the money gate, notices and the output. */
export interface EntriesPorts {
  /** The HTTP client, built on first use. */
  http(): Promise<HttpClient>;
  /** The money gate (`--dry-run` prints the plan and answers false). */
  gate(plan: Plan): Promise<boolean>;
  notices: Notices;
  io: Io;
  output: OutputSettings;
}

/**
 * `exclusions add|remove`: passes the first request through the gate (so a dry run sends nothing,
 * and creates no default list), sends every chunk, says how many handles in how many requests, and
 * prints the list as it is after the last chunk.
 */
export async function changeListEntries(ports: EntriesPorts, ref: ListRef, handles: readonly string[], action: 'add' | 'remove'): Promise<void> {
  if (!(await ports.gate(changeEntriesPlan(ref, handles, action)))) return;
  const result = await changeEntries(await ports.http(), ref, handles, action);
  const requests = entryRequests(handles.length);
  ports.notices.notice(`${action === 'add' ? 'Added' : 'Removed'} ${plural(handles.length, 'handle')} (${plural(requests, 'request')}).`);
  if (result && typeof result === 'object') await printItem(ports.io, ports.output, result, LIST_COLUMNS);
}

/** What `exclusions add|remove` were given: the list, handles as arguments, and `--file`. */
export interface EntriesChange {
  list: string;
  handles: readonly string[];
  file?: string | undefined;
  /** `--delimiter`, `--relax-columns` for the file. */
  delimiter?: string | undefined;
  relaxColumns?: boolean | undefined;
}

/**
 * `exclusions add|remove`: the list reference and the handles (arguments, then the file's lines) are
 * checked before anything is sent; then the gate, then the change in chunks (changeListEntries).
 */
export async function changeEntriesFrom(ports: EntriesPorts & { input: InputPorts }, change: EntriesChange, action: 'add' | 'remove'): Promise<void> {
  const ref = parseListRef(change.list);
  const csv = csvReadOptions(change);
  const fromFile = change.file === undefined ? [] : await readHandleLines({ ...portsOf(ports.input), notice: (m) => ports.notices.notice(m) }, change.file, '--file', csv);
  await changeListEntries(ports, ref, handlesToChange([...change.handles, ...fromFile], action), action);
}
