import {
  changeEntries,
  changeEntriesPlan,
  entryRequests,
  listExclusionLists,
  parseListRef,
  type ListRef,
} from '../api/exclusions.js';
import type { Plan } from '../api/plan.js';
import { UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { CsvReadOptions } from '../csv/read.js';
import { readColumnValues, type ColumnValuesPorts } from '../csv/values.js';
import type { Terminal } from '../io/terminal.js';
import { printItem, type ColumnSpec, type OutputSettings } from '../output/index.js';
import { MAX_EXCLUDE_HANDLES } from '../../contract/limits.js';
import { countText, plural } from '../words.js';

export const LIST_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'id', kind: 'number', keep: true },
  { path: 'name', header: 'name', kind: 'text' },
  { path: 'platform', header: 'platform', whole: true, priority: 1 },
  { path: 'is_default', header: 'default', kind: 'bool' },
  { path: 'handle_count', header: 'handles', kind: 'count' },
  { path: 'updated_at', header: 'updated', kind: 'date' },
];

/** Handles from a file: the one reader of a file of creators (lib/csv/values.ts), unique. */
export async function readHandleLines(
  input: ColumnValuesPorts,
  source: string,
  flag: string,
  csv: CsvReadOptions = {},
): Promise<string[]> {
  const values = await readColumnValues(input, source, flag, { kind: 'handle', csv });
  return uniqueHandles(values.map((v) => v.value));
}

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

/** More than 10,000 is a usage error, as the API would refuse them. */
export async function readExcludeHandles(
  input: ColumnValuesPorts,
  source: string,
  flag: string,
  csv: CsvReadOptions = {},
): Promise<string[]> {
  const out = await readHandleLines(input, source, flag, csv);
  if (out.length > MAX_EXCLUDE_HANDLES) {
    throw new UsageError(
      `${flag} holds ${plural(out.length, 'handle')}; the API takes at most ${countText(MAX_EXCLUDE_HANDLES)}.`,
      {
        hint: 'Put them in an exclusion list (creators exclusions add <list> --file ...) and use --exclude-list.',
      },
    );
  }
  return out;
}

/** The real API skips unknown or other-platform exclusion-list ids silently and still charges, so they are checked
 * first with one free GET of all lists: nothing billable is sent for a bad id. */
export async function checkExclusionLists(http: HttpClient, platform: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const lists = await listExclusionLists(http, { inputCheck: true });
  const byId = new Map(lists.map((l) => [Number(l.id), l]));
  for (const id of ids) {
    const list = byId.get(id);
    if (!list) {
      throw new UsageError(`Exclusion list ${id} does not exist; nothing was sent.`, {
        hint: 'See `creators exclusions list`.',
      });
    }
    if (String(list.platform).toLowerCase() !== platform) {
      throw new UsageError(
        `Exclusion list ${id} ('${String(list.name)}') is for ${String(list.platform)}, not ${platform}; nothing was sent.`,
        {
          hint: `See \`creators exclusions list --platform ${platform}\`.`,
        },
      );
    }
  }
}

export function handlesToChange(values: Iterable<string>, action: 'add' | 'remove'): string[] {
  const handles = uniqueHandles(values);
  if (handles.length === 0)
    throw new UsageError(`No handles to ${action}.`, {
      hint: 'Give handles as arguments, or --file <file|-> with one per line.',
    });
  return handles;
}

export interface EntriesPorts {
  http(): Promise<HttpClient>;
  gate(plan: Plan): Promise<boolean>;
  term: Terminal;
  output: OutputSettings;
}

/** The first request passes the gate, so a dry run sends nothing (and creates no default list). */
export async function changeListEntries(
  ports: EntriesPorts,
  ref: ListRef,
  handles: readonly string[],
  action: 'add' | 'remove',
): Promise<void> {
  if (!(await ports.gate(changeEntriesPlan(ref, handles, action)))) return;
  const result = await changeEntries(await ports.http(), ref, handles, action);
  const requests = entryRequests(handles.length);
  ports.term.notice(
    `${action === 'add' ? 'Added' : 'Removed'} ${plural(handles.length, 'handle')} (${plural(requests, 'request')}).`,
  );
  if (result && typeof result === 'object') await printItem(ports.term, ports.output, result, LIST_COLUMNS);
}

export interface EntriesChange {
  list: string;
  handles: readonly string[];
  file?: string | undefined;
  csv?: CsvReadOptions | undefined;
}

export async function changeEntriesFrom(
  ports: EntriesPorts,
  change: EntriesChange,
  action: 'add' | 'remove',
): Promise<void> {
  const ref = parseListRef(change.list);
  const fromFile =
    change.file === undefined ? [] : await readHandleLines(ports.term, change.file, '--file', change.csv);
  await changeListEntries(ports, ref, handlesToChange([...change.handles, ...fromFile], action), action);
}
