/**
 * Standard input can be read once: `--api-key-file -` beside another reader of `-` (`--input -`,
 * `--file -`, `batch upload -`, `config set <key> -`...) is a usage error naming both (exit 2), before
 * anything is read or sent.
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const seen: string[] = [];
const sb = useSandbox({ log: (line) => seen.push(line) });

const cases: Array<{ argv: string[]; names: string }> = [
  { argv: ['enrich', 'handle', '--platform', 'instagram', '--input', '-'], names: '--api-key-file - and --input -' },
  { argv: ['socials', '--platform', 'instagram', '--input', '-'], names: '--api-key-file - and --input -' },
  { argv: ['api', 'discovery', '--input', '-'], names: '--api-key-file - and --input -' },
  { argv: ['exclusions', 'add', 'default:instagram', '--file', '-'], names: '--api-key-file - and --file -' },
  {
    argv: ['batch', 'upload', '-', '--mode', 'raw', '--platform', 'instagram'],
    names: '--api-key-file - and <file> -',
  },
  { argv: ['search', '--platform', 'instagram', '--filters', '-'], names: '--api-key-file - and --filters -' },
  {
    argv: ['listening', 'subscriptions', 'create', '--name', 'x', '--body', '-'],
    names: '--api-key-file - and --body -',
  },
];

describe('--api-key-file - with another reader of standard input', () => {
  it.each(cases)('$names ($argv.0 $argv.1): exit 2, both named, nothing sent', async ({ argv, names }) => {
    seen.length = 0;
    const used = sb.get().state.ledger.usedMilli;
    const stdin = `${sb.get().apiKey}\nhandle\nsomeone\n`;
    const res = await runCli(['--api-key-file', '-', ...argv], {
      env: { CREATORS_BASE_URL: sb.get().url },
      configDir: tempConfigDir(),
      stdin,
    });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(`error: ${names} both read standard input, which can be read only once.`);
    expect(res.stderr).toContain('Give the key another way');
    expect(seen).toEqual([]);
    expect(sb.get().state.ledger.usedMilli).toBe(used);
  });

  it('--api-key-file - beside two other readers names all three', async () => {
    const res = await runCli(
      ['--api-key-file', '-', 'search', '--platform', 'instagram', '--filters', '-', '--exclude-handles', '-'],
      { env: { CREATORS_BASE_URL: sb.get().url }, configDir: tempConfigDir(), stdin: '{}' },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--api-key-file -, --filters - and --exclude-handles - both read standard input');
  });

  it('--api-key-file - alone still works', async () => {
    const res = await runCli(['--api-key-file', '-', 'credits', '--json'], {
      env: { CREATORS_BASE_URL: sb.get().url },
      configDir: tempConfigDir(),
      stdin: `${sb.get().apiKey}\n`,
    });
    expect(res.code, res.stderr).toBe(0);
  });
});
