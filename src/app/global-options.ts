/**
 * The global options of the contract, as commander hands them over (camelCase), the numbers read
 * (program.ts's `GLOBAL_VALUES`, before the verb runs).
 */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  apiKeyFile?: string;
  profile?: string;
  format?: string;
  json?: boolean;
  /** `--fields`: the dot paths in order (program.ts's `GLOBAL_VALUES`). */
  fields?: string[];
  output?: string;
  quiet?: boolean;
  csvSafe?: boolean;
  bom?: boolean;
  /** False with `--no-pager`. */
  pager?: boolean;
  color?: boolean;
  debug?: boolean;
  /** `--timeout <s>`: seconds. */
  timeout?: number;
  retries?: number;
  dryRun?: boolean;
  /** `--max-credits <n>` in thousandths of a credit; null when given empty (no budget, whatever the env says). */
  maxCredits?: number | null;
  /** `--max-age <duration>` in ms: reuse answers bought within it (0: buy fresh); null when given empty (the defaults). */
  maxAge?: number | null;
  /** False with `--no-store`. */
  store?: boolean;
  yes?: boolean;
}
