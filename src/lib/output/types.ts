import type { Pager } from './pager.js';

export type Format = 'table' | 'json' | 'jsonl' | 'csv' | 'tsv';

export const FORMATS: readonly Format[] = ['table', 'json', 'jsonl', 'csv', 'tsv'];

/** Resolved once from flags, environment and profile (settings.ts). */
export interface OutputSettings {
  format: Format;
  /** Asked for (flag, env, config, `-o` extension), not defaulted. */
  formatExplicit: boolean;
  fields?: string[] | undefined;
  outputPath?: string | undefined;
  color: boolean;
  /** Unicode drawing (table borders, charts, marks) by the one rule of lib/io/charset.ts; absent: ASCII only. */
  unicode?: boolean | undefined;
  quiet: boolean;
  csvSafe?: boolean | undefined;
  bom?: boolean | undefined;
  pager?: Pager | undefined;
  named?: OutputNames | undefined;
}

/** How output warnings name the settings they speak of: the caller's words (the app's `--fields`). */
export interface OutputNames {
  fields: string;
}

export interface ColumnSpec {
  path: string;
  header?: string;
  /** `accounts` shows a list of `{platform, handle}` as `youtube:noah_paws, twitch:noah_paws`. */
  kind?: 'text' | 'number' | 'count' | 'percent' | 'date' | 'bool' | 'accounts';
  /** Something to copy (an id, a handle, a key): a terminal table never cuts or drops it. */
  keep?: boolean;
  /** Read whole or not at all (a URL, a status): never cut, left out in priority order when too wide. */
  whole?: boolean;
  /** Shown only when the terminal is wide enough for it uncut (implies `whole`), without a note when left out. */
  wide?: boolean;
  /** Lower is cut first, then dropped first. Numbers, dates and flags are never cut, only dropped. */
  priority?: number;
}

export type DataRecord = Record<string, unknown>;
