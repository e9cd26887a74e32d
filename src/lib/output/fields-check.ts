/**
 * A `--fields` path no printed record has (`profile.usrname`) would be empty without a word: warned once, with the
 * closest.
 */
import type { Terminal } from '../io/terminal.js';
import { pickedFields } from './columns.js';
import { flattenRecord, getPath } from './flatten.js';
import type { DataRecord, OutputNames, OutputSettings } from './types.js';

const SUGGEST_SAMPLE = 100;

export class FieldsCheck {
  private readonly missing: Set<string>;
  private readonly seen = new Set<string>();
  private records = 0;

  private constructor(
    fields: readonly string[],
    private readonly named: OutputNames | undefined,
  ) {
    this.missing = new Set(fields);
  }

  static for(settings: Pick<OutputSettings, 'fields' | 'named'>): FieldsCheck | undefined {
    const fields = pickedFields(settings);
    return fields === undefined ? undefined : new FieldsCheck(fields, settings.named);
  }

  see(record: DataRecord): void {
    this.records++;
    if (this.missing.size === 0) return;
    for (const field of this.missing) {
      if (getPath(record, field) !== undefined) this.missing.delete(field);
    }
    if (this.missing.size > 0 && this.records <= SUGGEST_SAMPLE) {
      for (const key of Object.keys(flattenRecord(record))) this.seePath(key);
    }
  }

  /** Notes the paths a record would have, when the printer knows them without a record (fixed columns). */
  seePaths(paths: readonly string[], has: (field: string) => boolean): void {
    this.records++;
    for (const field of this.missing) if (has(field)) this.missing.delete(field);
    for (const path of paths) this.seePath(path);
  }

  async *watch(records: AsyncIterable<DataRecord> | Iterable<DataRecord>): AsyncGenerator<DataRecord> {
    for await (const record of records) {
      this.see(record);
      yield record;
    }
  }

  get count(): number {
    return this.records;
  }

  warn(io: Terminal): void {
    if (this.records === 0) return;
    const missing = [...this.missing];
    this.missing.clear();
    for (const field of missing) {
      const near = closest(field, [...this.seen]);
      const suggestion = near === undefined ? '' : `; did you mean '${near}'?`;
      io.warn(`${this.named === undefined ? '' : `${this.named.fields}: `}no record has '${field}'${suggestion}`);
    }
  }

  private seePath(path: string): void {
    // `profile.username` also makes `profile` a path one can ask for.
    for (let i = path.indexOf('.'); i > 0; i = path.indexOf('.', i + 1)) this.seen.add(path.slice(0, i));
    this.seen.add(path);
  }
}

/** One ending in `.field`, else the fewest edits away when few enough to be a typo (a third of the length). */
export function closest(field: string, known: readonly string[]): string | undefined {
  const lower = field.toLowerCase();
  const bySuffix = known.filter((path) => path.toLowerCase().endsWith(`.${lower}`));
  if (bySuffix.length > 0) return bySuffix.sort((a, b) => a.length - b.length)[0];
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(field.length / 3)) + 1;
  for (const path of known) {
    const d = editDistance(lower, path.toLowerCase());
    if (d < bestDistance) {
      best = path;
      bestDistance = d;
    }
  }
  return best;
}

/** Damerau-Levenshtein (optimal string alignment): insertions, deletions, substitutions, swaps. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Infinity;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = v;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
