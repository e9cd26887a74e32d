import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configureBatch } from '../../src/sandbox/batch/jobs.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { tempConfigDir } from '../helpers/run-cli.js';
import { tempDir, writeCsv } from '../commands/batch/helpers.js';

// Real time here: jobs start at once and process fast, and the CLI checks every 0.1 s.
const sb = useSandbox({ batchRowsPerSecond: 10_000 });

describe('batch (built CLI)', () => {
  it('upload prints only the id when piped; run writes the results file; a re-run reattaches', async () => {
    configureBatch(sb.get().state, { queueSeconds: 0 });
    const dir = tempDir();
    const file = writeCsv(dir, 'handles.csv', ['name,handle', 'A,nasa', 'B,@esa', 'C,nasa']);
    const env = { ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: tempConfigDir() };
    const up = await spawnCli(['batch', 'upload', file, '--mode', 'raw', '--platform', 'instagram'], env);
    expect(up.code).toBe(0);
    expect(up.stdout).toMatch(/^bch_[0-9a-f]{32}\n$/);

    const out = join(dir, 'results.csv');
    const run = await spawnCli(
      ['batch', 'run', file, '--mode', 'raw', '--platform', 'instagram', '-o', out, '--interval', '0.1'],
      env,
    );
    expect(run.stderr).toContain('1 duplicate skipped');
    expect(run.code).toBe(0);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^input_value,status,/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['nasa', '@esa']);

    const again = await spawnCli(
      ['batch', 'run', file, '--mode', 'raw', '--platform', 'instagram', '-o', out, '--interval', '0.1'],
      env,
    );
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('Reattaching to bch_');
  });
});
