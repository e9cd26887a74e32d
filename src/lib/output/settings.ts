/**
 * The one place the output format is decided: `--json`/`--format` > `-o` extension > CREATORS_FORMAT > the
 * profile's `format` > table on a terminal, json when piped or to a file.
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { matchChoice } from '../options.js';
import { formatFromPath } from './format-from-path.js';
import { checkOutputPath } from './preflight.js';
import { FORMATS, type Format, type OutputNames, type OutputSettings } from './types.js';

export interface OutputInputs {
  json?: boolean | undefined;
  format?: string | undefined;
  /** The `--fields` paths, in order (read by the Context). */
  fields?: readonly string[] | undefined;
  output?: string | undefined;
  envFormat?: string | undefined;
  profileFormat?: string | undefined;
  stdoutIsTTY: boolean;
  color: boolean;
  unicode?: boolean | undefined;
  quiet: boolean;
  cwd: string;
  csvSafe?: boolean | undefined;
  bom?: boolean | undefined;
  profileCsvSafe?: string | undefined;
  profileBom?: string | undefined;
  named?: OutputNames | undefined;
}

export function askedFormat(
  inputs: Pick<OutputInputs, 'json' | 'format' | 'output' | 'envFormat' | 'profileFormat'>,
): string | undefined {
  const fromFlag = inputs.json ? 'json' : inputs.format;
  const toFile = inputs.output !== undefined && inputs.output !== '-' ? inputs.output : undefined;
  return fromFlag ?? (toFile ? formatFromPath(toFile) : undefined) ?? inputs.envFormat ?? inputs.profileFormat;
}

/** `-o` is checked for writability here, before anything is sent. */
export function resolveOutputSettings(inputs: OutputInputs): OutputSettings {
  const asked = askedFormat(inputs);
  const toFile = inputs.output !== undefined && inputs.output !== '-';
  const format = asked ?? (inputs.stdoutIsTTY && !inputs.output ? 'table' : 'json');
  const settings: OutputSettings = {
    format: checkFormat(format),
    formatExplicit: asked !== undefined,
    fields: inputs.fields === undefined ? undefined : [...inputs.fields],
    outputPath: toFile ? resolve(inputs.cwd, inputs.output as string) : undefined,
    color: inputs.color && inputs.stdoutIsTTY && !toFile,
    unicode: inputs.unicode ?? false,
    quiet: inputs.quiet,
    // Off by default, so machine output stays byte for byte what it was: flag (either way) > profile > off.
    csvSafe: inputs.csvSafe ?? inputs.profileCsvSafe === 'true',
    bom: inputs.bom ?? inputs.profileBom === 'true',
    named: inputs.named,
  };
  if (settings.outputPath) checkOutputPath(settings.outputPath);
  return settings;
}

/** Errors are JSON only when JSON was asked for, not merely because stdout is a pipe; never throws. */
export function errorFormat(inputs: Pick<OutputInputs, 'json' | 'format' | 'envFormat'>): Format | undefined {
  const f = inputs.json ? 'json' : (inputs.format ?? inputs.envFormat);
  return f === undefined ? undefined : matchChoice(f, FORMATS);
}

function checkFormat(format: string): Format {
  const known = matchChoice(format, FORMATS);
  if (known === undefined)
    throw new UsageError(`Unknown format '${format}'.`, { hint: `Use one of: ${FORMATS.join(', ')}.` });
  return known;
}
