import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 26 });
const env = () => sandboxEnv(sb.get());
const usedMilli = () => sb.get().state.ledger.usedMilli;
const FILTER = ['--filter', 'location=Germany'];

/** A config dir whose confirm-above is 1 credit (the default 10 would need over 1,000 matches). */
async function threshold(credits: string): Promise<string> {
  const configDir = tempConfigDir();
  expect((await runCli(['config', 'set', 'confirm-above', credits], { configDir })).code).toBe(0);
  return configDir;
}

async function total(platform: string): Promise<number> {
  const res = await runCli(['search', '--platform', platform, ...FILTER, '--limit', '1', '--envelope', '--json'], {
    env: env(),
  });
  expect(res.code).toBe(0);
  return res.json<{ total: number }>().total;
}

describe('search --all on a terminal asks after the first page, with the real count (issue 26 item 2)', () => {
  it('buys the first page, asks "N matches: k more pages, up to x credits more", and "no" keeps the page (exit 0)', async () => {
    const matches = await total('instagram');
    expect(matches).toBeGreaterThan(100);
    const configDir = await threshold('1');
    const before = usedMilli();
    const res = await runCli(['search', '--platform', 'instagram', ...FILTER, '--all', '--format', 'csv'], {
      env: env(),
      configDir,
      tty: true,
      stdinTTY: true,
      stdin: 'n\n',
    });
    expect(res.code).toBe(0);
    // No cap-based question first: the first page (0.5 credits) is within the threshold.
    expect(res.stderr).not.toMatch(/This may cost up to/);
    const rest = matches - 50;
    const pages = Math.ceil(rest / 50);
    const credits = (rest / 100).toLocaleString('en-US', { maximumFractionDigits: 3 });
    expect(res.stderr).toContain(
      `${matches.toLocaleString('en-US')} matches: ${pages} more page${pages === 1 ? '' : 's'}, up to ${credits} credits more. Continue? [y/N] `,
    );
    // Wrapped to the terminal's width.
    expect(res.stderr.replace(/\s+/g, ' ')).toContain(
      'Stopped after the first page, as answered: nothing more was bought. --max-results n buys fewer; --yes goes on without asking.',
    );
    expect(res.stdout.trim().split('\n')).toHaveLength(51);
    expect(usedMilli() - before).toBe(500);
  });

  it('"yes" goes on and buys the rest', async () => {
    const matches = await total('instagram');
    const configDir = await threshold('1');
    const before = usedMilli();
    const res = await runCli(['search', '--platform', 'instagram', ...FILTER, '--all', '--format', 'csv'], {
      env: env(),
      configDir,
      tty: true,
      stdinTTY: true,
      stdin: 'y\n',
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/more\. Continue\? \[y\/N\] /);
    expect(res.stdout.trim().split('\n')).toHaveLength(matches + 1);
    expect(usedMilli() - before).toBe(matches * 10);
  });

  it('no question when the real cost is within the threshold (the cap-based worst case is not)', async () => {
    const configDir = await threshold('10');
    const res = await runCli(['search', '--platform', 'instagram', ...FILTER, '--all', '--format', 'csv'], {
      env: env(),
      configDir,
      tty: true,
      stdinTTY: true,
      stdin: '',
    });
    expect(res.code).toBe(0);
    expect(res.stderr).not.toMatch(/Continue\?/);
  });

  it('similar --all asks the same way', async () => {
    const configDir = await threshold('0.6');
    const handle = sb.get().state.creators.list('instagram')[0]!.profile.username;
    const before = usedMilli();
    const res = await runCli(['similar', handle, '--platform', 'instagram', '--all', '--format', 'csv'], {
      env: env(),
      configDir,
      tty: true,
      stdinTTY: true,
      stdin: 'n\n',
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/matches: \d+ more pages?, up to [\d.,]+ credits more\. Continue\? \[y\/N\] /);
    expect(usedMilli() - before).toBe(500);
  });

  it('a first page above the threshold is asked before, with the worst case, as before', async () => {
    const configDir = await threshold('0.1');
    const before = usedMilli();
    const res = await runCli(['search', '--platform', 'instagram', ...FILTER, '--all'], {
      env: env(),
      configDir,
      tty: true,
      stdinTTY: true,
      stdin: 'n\n',
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/This may cost up to 100 credits/);
    expect(res.stderr).toMatch(/Nothing was sent\./);
    expect(usedMilli() - before).toBe(0);
  });

  it('--dry-run keeps the cap-based worst case and says how to learn the real count with --limit 1', async () => {
    const before = usedMilli();
    const res = await runCli(['search', '--platform', 'instagram', ...FILTER, '--all', '--dry-run', '--json'], {
      env: env(),
    });
    expect(res.code).toBe(0);
    expect(res.json<{ worst_case_credits: number }>().worst_case_credits).toBe(100);
    expect(res.stderr).toMatch(
      /To learn the real number of matches for 0\.01 credits, run it once with --limit 1 instead of --all/,
    );
    expect(usedMilli() - before).toBe(0);
  });
});
