import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from './helpers/run-cli.js';

describe('the command tree', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const res = await runCli(['--version']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${pkg.version}\n`);
  });

  it('--help lists the command groups, the global options and examples', async () => {
    const res = await runCli(['--help']);
    expect(res.code).toBe(0);
    for (const word of ['credits', 'auth', 'dict', 'config', 'api', 'sandbox', 'completion', 'help']) {
      expect(res.stdout).toMatch(new RegExp(`^  ${word}\\b`, 'm'));
    }
    for (const flag of ['--base-url', '--api-key', '--profile', '--format', '--json', '--fields', '--output', '--quiet', '--no-color', '--debug', '--timeout', '--retries', '--dry-run', '--max-credits', '--yes']) {
      expect(res.stdout).toContain(flag);
    }
    expect(res.stdout).toContain('Examples:');
  });

  it('every command has a description and examples in its help', async () => {
    const paths = [['credits'], ['auth', 'status'], ['dict'], ['config', 'get'], ['config', 'set'], ['config', 'unset'], ['config', 'list'], ['config', 'path'], ['api'], ['sandbox'], ['completion'], ['help']];
    for (const path of paths) {
      const res = await runCli([...path, '--help']);
      expect(res.code, path.join(' ')).toBe(0);
      expect(res.stdout, path.join(' ')).toContain('Examples:');
      expect(res.stdout.split('\n')[2]?.trim().length, path.join(' ')).toBeGreaterThan(10);
    }
  });

  it('an unknown command is a usage error (exit 2) with a one-line message', async () => {
    const res = await runCli(['serch']);
    expect(res.code).toBe(2);
    expect(res.stderr.split('\n')[0]).toMatch(/^error: unknown command 'serch'/);
  });

  it('an unknown option is a usage error (exit 2)', async () => {
    const res = await runCli(['credits', '--bogus']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: unknown option '--bogus'/);
  });

  it('an unknown --format is a usage error (exit 2)', async () => {
    const res = await runCli(['credits', '--format', 'xml'], { env: { CREATORS_API_KEY: 'k', CREATORS_BASE_URL: 'http://127.0.0.1:1' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Unknown format 'xml'\.\nUse one of: table, json, jsonl, csv, tsv\.\n$/);
  });
});

describe('conflicting format flags', () => {
  it('--json with another --format is a usage error (exit 2)', async () => {
    const res = await runCli(['config', 'list', '--json', '--format', 'csv']);
    expect(res.code).toBe(2);
    // --json asked for JSON, so the error itself comes as JSON.
    expect(res.errorJson().error).toMatchObject({ code: 'usage', message: '--json and --format csv ask for two formats.' });
  });
});
