/**
 * The one place the output format is decided: `--json`/`--format` > `-o` extension > CREATORS_FORMAT >
 * the profile's `format` > the terminal default (table on a terminal, json when piped or to a file).
 * Also csv/tsv's `--csv-safe` and `--bom`: the flag (`--no-csv-safe`, `--no-bom` turn a profile's `true`
 * off for one run), else the profile's setting, else off.
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { matchChoice } from '../options.js';
import { formatFromPath } from './format-from-path.js';
import { checkOutputPath } from './preflight.js';
import { FORMATS, type Format, type OutputSettings } from './types.js';

/** What the format depends on, gathered by the caller (flags, environment, profile, terminal). */
export interface OutputInputs {
  json?: boolean | undefined;
  format?: string | undefined;
  fields?: string | undefined;
  /** `-o`: a path, or `-` for stdout. */
  output?: string | undefined;
  /** CREATORS_FORMAT. */
  envFormat?: string | undefined;
  /** The profile's `format` setting; undefined when there is none (or it was not read). */
  profileFormat?: string | undefined;
  stdoutIsTTY: boolean;
  /** ANSI colour allowed at all (no --no-color, NO_COLOR, TERM=dumb). */
  color: boolean;
  /** Unicode drawing characters allowed (a UTF-8 locale, a terminal that is not dumb: lib/io/charset.ts). */
  unicode?: boolean | undefined;
  /** The locale's character set is not UTF-8 (`asciiLocale`). */
  ascii?: boolean | undefined;
  quiet: boolean;
  cwd: string;
  /** `--csv-safe` and `--bom`: true when given, false for `--no-csv-safe`/`--no-bom`, undefined when neither. */
  csvSafe?: boolean | undefined;
  bom?: boolean | undefined;
  /** The profile's `csv-safe` and `bom` settings (`true`/`false`); read only when the flag was not given. */
  profileCsvSafe?: string | undefined;
  profileBom?: string | undefined;
}

/**
 * True when the locale names a character set other than UTF-8 (`LANG=C`, `POSIX`, `en_US.ISO-8859-1`), as
 * the C library reads it: LC_ALL, else LC_CTYPE, else LANG, the first one set and not empty. With none set
 * the terminal is taken to be UTF-8 (Windows sets none, and its terminals draw the box characters).
 */
export function asciiLocale(env: Record<string, string | undefined>): boolean {
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && !/utf-?8/i.test(locale);
}

/** The format asked for explicitly, without defaults; a usage error for `--json --format csv`. */
export function askedFormat(inputs: Pick<OutputInputs, 'json' | 'format' | 'output' | 'envFormat' | 'profileFormat'>): string | undefined {
  if (inputs.json && inputs.format !== undefined && matchChoice(inputs.format, FORMATS) !== 'json') {
    throw new UsageError(`--json and --format ${inputs.format} ask for two formats.`, { hint: 'Keep one of them.' });
  }
  const fromFlag = inputs.json ? 'json' : inputs.format;
  const toFile = inputs.output !== undefined && inputs.output !== '-' ? inputs.output : undefined;
  return fromFlag ?? (toFile ? formatFromPath(toFile) : undefined) ?? inputs.envFormat ?? inputs.profileFormat;
}

/** Resolves every output setting; `-o` is checked for writability here, before anything is sent. */
export function resolveOutputSettings(inputs: OutputInputs): OutputSettings {
  const asked = askedFormat(inputs);
  const toFile = inputs.output !== undefined && inputs.output !== '-';
  const format = asked ?? (inputs.stdoutIsTTY && !inputs.output ? 'table' : 'json');
  const settings: OutputSettings = {
    format: checkFormat(format),
    formatExplicit: asked !== undefined,
    fields: parseFields(inputs.fields),
    // `-o -` means stdout; relative paths are taken from the injected cwd.
    outputPath: toFile ? resolve(inputs.cwd, inputs.output as string) : undefined,
    color: inputs.color && inputs.stdoutIsTTY && !toFile,
    unicode: inputs.unicode ?? false,
    ascii: inputs.ascii === true,
    quiet: inputs.quiet,
    // Off by default, so machine output stays byte for byte what it was: flag (either way) > profile > off.
    csvSafe: inputs.csvSafe ?? inputs.profileCsvSafe === 'true',
    bom: inputs.bom ?? inputs.profileBom === 'true',
  };
  if (settings.outputPath) checkOutputPath(settings.outputPath);
  return settings;
}

/**
 * The format for printing an error: only one asked for explicitly by flag or environment (errors are
 * JSON only when JSON was asked for, not merely because stdout is a pipe); never throws.
 */
export function errorFormat(inputs: Pick<OutputInputs, 'json' | 'format' | 'envFormat'>): Format | undefined {
  const f = inputs.json ? 'json' : (inputs.format ?? inputs.envFormat);
  return f === undefined ? undefined : matchChoice(f, FORMATS);
}

function checkFormat(format: string): Format {
  const known = matchChoice(format, FORMATS);
  if (known === undefined) throw new UsageError(`Unknown format '${format}'.`, { hint: `Use one of: ${FORMATS.join(', ')}.` });
  return known;
}

function parseFields(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const fields = raw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new UsageError('--fields needs at least one field name, e.g. --fields profile.username,user_id');
  return fields;
}
