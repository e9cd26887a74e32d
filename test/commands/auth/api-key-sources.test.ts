import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { useSandbox } from '../../helpers/sandbox.js';
import { spawnCli } from '../../helpers/spawn-cli.js';
import { tempFile } from '../../helpers/temp.js';

const sb = useSandbox({ seed: 3 });

describe('--api-key-file', () => {
  it('reads the key from a file (one trailing newline dropped) and says so in auth status', async () => {
    const { path } = tempFile('key', `${sb.get().apiKey}\n`);
    const env = { CREATORS_BASE_URL: sb.get().url };
    const credits = await runCli(['credits', '--json', '--api-key-file', path], { env });
    expect(credits.code, credits.stderr).toBe(0);
    expect(credits.json()).toHaveProperty('credits_available');
    const status = await runCli(['auth', 'status', '--json', '--api-key-file', path], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.json()).toMatchObject({ authenticated: true, credential_source: 'file', credential_kind: 'api-key' });
    expect(status.stdout).not.toContain(sb.get().apiKey);
  });

  it('auth status with an API key on a terminal leaves out the rows that belong to a login', async () => {
    const env = { CREATORS_BASE_URL: sb.get().url, CREATORS_API_KEY: sb.get().apiKey, NO_COLOR: '1' };
    const shown = await runCli(['auth', 'status'], { env, tty: true, columns: 80 });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/│ Credential from +│ env +│/);
    expect(shown.stdout).toMatch(/│ Live check +│ ok +│/);
    expect(shown.stdout).not.toContain('Expires');
    expect(shown.stdout).not.toContain('Refreshable');
    // Machine output keeps every key, null where it does not apply.
    const json = await runCli(['auth', 'status', '--json'], { env });
    expect(json.json()).toMatchObject({ credential_kind: 'api-key', expires_at: null, refreshable: null });
  });

  it('reads the key from standard input with -, in the built CLI', async () => {
    const res = await spawnCli(
      ['credits', '--json', '--api-key-file', '-'],
      { CREATORS_BASE_URL: sb.get().url },
      `${sb.get().apiKey}\r\n`,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toHaveProperty('credits_available');
  });

  it('comes after --api-key and before CREATORS_API_KEY', async () => {
    const { path } = tempFile('key', sb.get().apiKey);
    const env = { CREATORS_BASE_URL: sb.get().url, CREATORS_API_KEY: 'sbx_live_wrong' };
    const fromFile = await runCli(['auth', 'status', '--json', '--api-key-file', path], { env });
    expect(fromFile.json()).toMatchObject({ credential_source: 'file', live_check: 'ok' });
    const fromFlag = await runCli(['auth', 'status', '--json', '--api-key-file', path, '--api-key', sb.get().apiKey], {
      env,
    });
    expect(fromFlag.json()).toMatchObject({ credential_source: 'flag', live_check: 'ok' });
  });

  it('a missing file, an empty file or a second line is a usage error (exit 2) and nothing is sent', async () => {
    const env = { CREATORS_BASE_URL: sb.get().url };
    const before = sb.get().state.ledger.charges.length;
    const missing = await runCli(['credits', '--api-key-file', '/nonexistent/key'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read --api-key-file file '\/nonexistent\/key'/);
    const emptyFile = tempFile('key', '\n').path;
    const empty = await runCli(['credits', '--api-key-file', emptyFile], { env });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(
      new RegExp(
        `^error: --api-key-file '${emptyFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' is empty\\.\\n.*Put the API key in it, alone on one line\\.\\n$`,
      ),
    );
    const emptyStdin = await runCli(['credits', '--api-key-file', '-'], { env, stdin: '' });
    expect(emptyStdin.code).toBe(2);
    expect(emptyStdin.stderr).toMatch(
      /^error: --api-key-file - \(standard input\) is empty\.\n.*Put the API key in it, alone on one line\.\n$/,
    );
    const twoLines = await runCli(
      ['search', '--platform', 'instagram', '--api-key-file', tempFile('key', `${sb.get().apiKey}\nother\n`).path],
      { env },
    );
    expect(twoLines.code).toBe(2);
    expect(twoLines.stderr).toMatch(/The API key from --api-key-file '.*' contains a line feed \(LF\)/);
    expect(twoLines.stderr).not.toContain(sb.get().apiKey);
    expect(sb.get().state.ledger.charges.length).toBe(before);
  });
});

describe('an API key that cannot be sent in a header', () => {
  const bad = (key: string) => `${key.slice(0, 12)}X${key.slice(12)}`;
  const cases: Array<{ name: string; char: string; what: RegExp }> = [
    { name: 'CR', char: '\r', what: /a carriage return \(CR\) at character 13/ },
    { name: 'LF', char: '\n', what: /a line feed \(LF\) at character 13/ },
    { name: 'é', char: 'é', what: /a non-ASCII character \(U\+00E9\) at character 13/ },
  ];

  for (const { name, char, what } of cases) {
    it(`a key with ${name} is a usage error (exit 2) naming the flag, the env, the file or the setting`, async () => {
      const key = bad(sb.get().apiKey).replace('X', char);
      const base = { CREATORS_BASE_URL: sb.get().url };

      const flag = await runCli(['credits', '--api-key', key], { env: base });
      expect(flag.code, flag.stderr).toBe(2);
      expect(flag.stderr).toMatch(/^error: The API key from --api-key contains /);
      expect(flag.stderr).toMatch(what);

      const env = await runCli(['credits', '--json'], { env: { ...base, CREATORS_API_KEY: key } });
      expect(env.code).toBe(2);
      expect(env.errorJson().error.code).toBe('usage');
      expect(env.errorJson().error.message).toMatch(/The API key from CREATORS_API_KEY contains /);
      expect(env.errorJson().error.message).toMatch(what);

      const file = await runCli(['credits', '--api-key-file', tempFile('key', `${key}\n`).path], { env: base });
      expect(file.code).toBe(2);
      expect(file.stderr).toMatch(/The API key from --api-key-file '.*' contains /);
      expect(file.stderr).toMatch(what);

      const configDir = tempConfigDir();
      expect((await runCli(['config', 'set', 'api-key', key], { env: base, configDir })).code).toBe(0);
      const config = await runCli(['credits'], { env: base, configDir });
      expect(config.code).toBe(2);
      expect(config.stderr).toMatch(/The API key from the profile's api-key setting contains /);

      for (const r of [flag, env, file, config]) {
        expect(r.stderr).not.toMatch(/Network error|UND_ERR/);
        expect(r.stderr).not.toContain(sb.get().apiKey.slice(12));
      }
    });
  }
});

describe('the help says where a key is visible', () => {
  it('--help and help environment say --api-key shows in ps and the env or the file does not', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).toMatch(
      /--api-key\s+<key>\s+bearer\s+credential\s+\(env\s+CREATORS_API_KEY\);\s+other\s+users\s+see\s+it\s+in\s+ps/,
    );
    expect(help.stdout).toMatch(
      /--api-key-file\s+<path\|->\s+read\s+the\s+bearer\s+credential\s+from\s+a\s+file,\s+or\s+stdin\s+for\s+-\s+\(not\s+visible\s+in\s+ps\)/,
    );
    const topic = await runCli(['help', 'environment']);
    expect(topic.stdout).toMatch(/--api-key <key> on the command line is visible to every user/);
    expect(topic.stdout).toMatch(/CREATORS_API_KEY and --api-key-file <path\|->/);
  });
});
