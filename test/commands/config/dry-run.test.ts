import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';

const file = (configDir: string): string => join(configDir, 'config.json');

describe('creators config set/unset --dry-run', () => {
  it('set --dry-run prints the change and writes no file', async () => {
    const configDir = tempConfigDir();
    const res = await runCli(['config', 'set', 'format', 'csv', '--dry-run', '--json'], { configDir });
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({
      dry_run: true,
      profile: 'default',
      file: file(configDir),
      changes: [{ action: 'set', key: 'format', value: 'csv', previous: null }],
    });
    expect(res.stderr).toBe('');
    expect(existsSync(file(configDir))).toBe(false);
  });

  it('set --dry-run over a stored value shows both, masks secrets and leaves the file as it was', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'api-key', 'sk_live_abcdefghijklmnop'], { configDir })).code).toBe(0);
    const before = readFileSync(file(configDir), 'utf8');
    const res = await runCli(['config', 'set', 'api-key', '-', '--dry-run'], {
      configDir,
      stdin: 'Bearer sk_live_zyxwvutsrqponmlk\n',
      stdoutTTY: true,
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      `Dry run: nothing was changed.\nProfile 'default' in ${file(configDir)}:\n  set api-key to 'sk_…mlk' (now 'sk_…nop')\n`,
    );
    expect(res.stdout).not.toContain('zyxwvutsrqponmlk');
    expect(readFileSync(file(configDir), 'utf8')).toBe(before);
  });

  it('set --dry-run still refuses bad values (exit 2)', async () => {
    const configDir = tempConfigDir();
    const res = await runCli(['config', 'set', 'format', 'xml', '--dry-run'], { configDir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/Invalid value for 'format'/);
    expect(existsSync(file(configDir))).toBe(false);
  });

  it('unset --dry-run prints the change and keeps the value', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['--profile', 'staging', 'config', 'set', 'format', 'tsv'], { configDir })).code).toBe(0);
    const before = readFileSync(file(configDir), 'utf8');
    const res = await runCli(['--profile', 'staging', 'config', 'unset', 'format', '--dry-run', '--format', 'jsonl'], {
      configDir,
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      `${JSON.stringify({ dry_run: true, profile: 'staging', file: file(configDir), changes: [{ action: 'unset', key: 'format', value: null, previous: 'tsv' }] })}\n`,
    );
    expect(readFileSync(file(configDir), 'utf8')).toBe(before);
    expect((await runCli(['--profile', 'staging', 'config', 'get', 'format'], { configDir })).stdout).toBe('tsv\n');
  });

  it('the plan goes to -o like data', async () => {
    const configDir = tempConfigDir();
    const out = join(configDir, 'plan.json');
    const res = await runCli(['config', 'set', 'max-credits', '25', '--dry-run', '-o', out], { configDir });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      dry_run: true,
      changes: [{ action: 'set', key: 'max-credits', value: '25', previous: null }],
    });
    expect(existsSync(file(configDir))).toBe(false);
  });
});

describe('creators config get/path print like data', () => {
  it('get and path honour -o', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'format', 'csv'], { configDir })).code).toBe(0);
    const got = join(configDir, 'got.txt');
    const get = await runCli(['config', 'get', 'format', '-o', got], { configDir });
    expect(get.code).toBe(0);
    expect(get.stdout).toBe('');
    expect(readFileSync(got, 'utf8')).toBe('csv\n');
    const where = join(configDir, 'where.txt');
    const path = await runCli(['config', 'path', '-o', where], { configDir });
    expect(path.code).toBe(0);
    expect(path.stdout).toBe('');
    expect(readFileSync(where, 'utf8')).toBe(`${file(configDir)}\n`);
  });
});
