import type { Pager } from './pager.js';

/** Output formats of the contract (`--format`). */
export type Format = 'table' | 'json' | 'jsonl' | 'csv' | 'tsv';

export const FORMATS: readonly Format[] = ['table', 'json', 'jsonl', 'csv', 'tsv'];

/** Everything a printer needs to know about where and how to print; resolved once from flags/env/config. */
export interface OutputSettings {
  format: Format;
  /** True when the user asked for the format (flag, env, config, `-o` extension) rather than it being defaulted. */
  formatExplicit: boolean;
  /** `--fields`: dot paths to keep, in order. */
  fields?: string[] | undefined;
  /** `-o/--output`: write data to this file atomically instead of stdout. */
  outputPath?: string | undefined;
  /** ANSI colour allowed (on a terminal, no `--no-color`, no NO_COLOR). */
  color: boolean;
  /**
   * Unicode drawing characters allowed in terminal views (charts, card separators): a UTF-8 locale and a
   * terminal that is not dumb (lib/io/charset.ts). Absent: ASCII only.
   */
  unicode?: boolean | undefined;
  /** The locale is not UTF-8 (`LANG=C`): terminal tables get ASCII borders and `...` (settings.ts `asciiLocale`). */
  ascii?: boolean | undefined;
  /** `--quiet`: no spinners, progress or notices. */
  quiet: boolean;
  /** `--csv-safe`: csv/tsv cells starting with `=`, `+`, `-`, `@`, tab or CR get a leading `'`. */
  csvSafe?: boolean | undefined;
  /** `--bom`: csv/tsv start with a UTF-8 byte order mark. */
  bom?: boolean | undefined;
  /** The pager for data to a terminal's stdout (pager.ts); undefined when output is not paged. */
  pager?: Pager | undefined;
}

/** A table column: a dot path into the record, a header and how to show the value on a terminal. */
export interface ColumnSpec {
  path: string;
  header?: string;
  /**
   * `count` humanises (12.3k), `percent` adds %, `number` keeps the number, `text` truncates;
   * `accounts` shows a list of `{platform, handle}` as `youtube:noah_paws, twitch:noah_paws`.
   */
  kind?: 'text' | 'number' | 'count' | 'percent' | 'date' | 'bool' | 'accounts';
  /** Something to copy (an id, a handle, a key): a terminal table never cuts or drops it. */
  keep?: boolean;
  /**
   * A value read whole or not at all (a URL, a user id, a platform, a status): a terminal table never cuts
   * it, and leaves it out in priority order when the width is not enough.
   */
  whole?: boolean;
  /**
   * Shown only when the terminal is wide enough for it uncut (implies `whole`): left out before anything
   * else gives way, the lowest priority first, without a note (`--fields` names it to ask for it).
   */
  wide?: boolean;
  /**
   * How long the column holds out when a terminal table is too wide (default 0): lower is cut first,
   * then dropped first (the last of equals first). Numbers, dates and flags are never cut, only dropped.
   */
  priority?: number;
}

export type DataRecord = Record<string, unknown>;
