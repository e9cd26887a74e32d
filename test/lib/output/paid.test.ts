import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from '../../../src/lib/errors.js';
import { printPaidList } from '../../../src/lib/output/paid.js';
import type { OutputSettings } from '../../../src/lib/output/types.js';
import { tempDir } from '../../helpers/temp.js';
import { memoryTerminal } from '../../helpers/terminal.js';

const settings = (outputPath: string): OutputSettings =>
  ({ format: 'json', formatExplicit: true, color: false, quiet: false, outputPath }) as OutputSettings;

async function* paid(n: number): AsyncGenerator<Record<string, unknown>> {
  for (let i = 0; i < n; i++) yield { id: i };
}

describe('printPaidList', () => {
  it('a target that turned into a directory after the check: a usage error (exit 2) naming it, with the spend and nothing claimed kept; never "Unexpected error"', async () => {
    const dir = tempDir('creators-paid-');
    const target = join(dir, 'p.json');
    // The path was fine when checked; a folder appears there before the file is put in place.
    mkdirSync(target);
    const err = await printPaidList(memoryTerminal(), settings(target), paid(3), [], {
      spentMilli: () => 30,
      noun: 'creators',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    const cli = err as CliError;
    expect(cli.exitCode).toBe(EXIT.USAGE);
    expect(cli.message).toBe(`Cannot write ${target}: it is a directory.`);
    expect(cli.spent).toEqual({ spentMilli: 30, kept: `nothing kept, ${target} was not written` });
    expect(readdirSync(dir)).toEqual(['p.json']);
  });
});
