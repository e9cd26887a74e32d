import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { mockApi } from '../../helpers/mock-api.js';
import { Secrets } from '../../../src/lib/http/redact.js';

const sb = useSandbox({ seed: 9 });

type Key = { id: number; name: string; token: string; active: boolean; expires_at: string | null };

describe('creators keys', () => {
  it('creates, lists (masked), updates and deletes a key', async () => {
    const env = sandboxEnv(sb.get());
    const created = await runCli(['keys', 'create', '--name', 'ci', '--expires-at', '2027-01-31', '--json'], { env });
    expect(created.code).toBe(0);
    const key = created.json<Key>();
    expect(key).toMatchObject({ name: 'ci', active: true, expires_at: '2027-01-31T00:00:00.000Z' });
    const real = [...sb.get().state.apiKeys.values()].find((k) => k.id === key.id)!.token;
    // Shown once, in full: the JSON carries the key.
    expect(key.token).toBe(real);

    for (const format of ['json', 'jsonl', 'csv', 'tsv', 'table']) {
      const list = await runCli(['keys', 'list', '--format', format], { env });
      expect(list.code).toBe(0);
      expect(list.stdout).not.toContain(real);
      expect(list.stdout).not.toContain(sb.get().apiKey);
    }
    const table = await runCli(['keys', 'list'], { env, tty: true });
    expect(table.stdout).toContain('ci');
    expect(table.stdout).not.toContain(real);
    const shown = await runCli(['keys', 'list', '--json', '--show-token'], { env });
    expect(shown.json<Key[]>().find((k) => k.id === key.id)?.token).toBe(real);

    const updated = await runCli(
      ['keys', 'update', String(key.id), '--inactive', '--name', 'old', '--expires-at', 'none', '--json'],
      { env },
    );
    expect(updated.code).toBe(0);
    expect(updated.json()).toMatchObject({ id: key.id, name: 'old', active: false, expires_at: null });

    const refused = await runCli(['keys', 'delete', String(key.id)], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Confirmation needed/);
    expect(sb.get().state.apiKeys.has(real)).toBe(true);
    const deleted = await runCli(['keys', 'delete', String(key.id), '--yes'], { env });
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain(`Deleted API key ${key.id}.`);
    expect(sb.get().state.apiKeys.has(real)).toBe(false);
    const gone = await runCli(['keys', 'delete', String(key.id), '--yes'], { env });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/HTTP 404/);
  });

  it('create shows the new key once in full, warns on stderr, and masks it in every other message of the run', async () => {
    const env = sandboxEnv(sb.get());
    const newest = (): string => [...sb.get().state.apiKeys.values()].at(-1)!.token;

    const secrets = new Secrets();
    const tty = await runCli(['keys', 'create', '--name', 'laptop', '--no-color'], { env, tty: true, secrets });
    expect(tty.code).toBe(0);
    const key = newest();
    expect(tty.stdout.split(key)).toHaveLength(2);
    expect(tty.stdout).toMatch(/│ Key\s+│ sbx_live_/);
    expect(tty.stderr).toBe(
      'warning: Copy the new key now and keep it secret: it will not be shown again (keys list masks it).\n',
    );
    // The run learnt the key: any later message (a warning, an error, a debug line) shows REDACTED.
    expect(secrets.redact(`server said: ${key} is new`)).toBe('server said: REDACTED is new');

    const json = await runCli(['keys', 'create', '--name', 'ci', '--json', '--debug'], { env });
    expect(json.code).toBe(0);
    expect(json.json<Key>().token).toBe(newest());
    // --debug logs the response body, but never the key.
    expect(json.stderr).toContain('[debug]');
    expect(json.stderr).toContain('REDACTED');
    expect(json.stderr).not.toContain(newest());
    expect(json.stderr).toContain('it will not be shown again');

    // --show-token is still accepted (scripts that used it keep working).
    const old = await runCli(['keys', 'create', '--name', 'old-script', '--show-token', '--json'], { env });
    expect(old.code).toBe(0);
    expect(old.json<Key>().token).toBe(newest());
  });

  it('--dry-run shows the request and sends nothing', async () => {
    const { agent, env } = mockApi();
    const res = await runCli(['keys', 'delete', '4', '--dry-run', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({
      dry_run: true,
      method: 'DELETE',
      url: 'https://api.test/public/v1/accounts/tokens/4/',
      worst_case_credits: 0,
      cost_basis: 'free',
    });
  });

  it('create and update --dry-run print the plan with the body and create or change nothing', async () => {
    const env = sandboxEnv(sb.get());
    const keys = sb.get().state.apiKeys.size;
    const created = await runCli(
      ['keys', 'create', '--name', 'ci', '--expires-at', '2027-01-31', '--dry-run', '--json'],
      { env },
    );
    expect(created.code).toBe(0);
    expect(created.json()).toEqual({
      dry_run: true,
      method: 'POST',
      url: `${sb.get().url}/public/v1/accounts/tokens/`,
      body: { name: 'ci', expires_at: '2027-01-31T00:00:00.000Z' },
      worst_case_credits: 0,
      cost_basis: 'free',
    });
    expect(sb.get().state.apiKeys.size).toBe(keys);
    const updated = await runCli(['keys', 'update', '3', '--inactive', '--expires-at', 'none', '--dry-run', '--json'], {
      env,
    });
    expect(updated.code).toBe(0);
    expect(updated.json()).toMatchObject({
      dry_run: true,
      method: 'PATCH',
      url: `${sb.get().url}/public/v1/accounts/tokens/3/`,
      body: { active: false, expires_at: null },
    });
  });

  const bad: Array<[string[], RegExp]> = [
    [['keys', 'update', '0', '--active'], /Invalid key id '0'/],
    [['keys', 'update', '../x', '--active'], /Invalid key id/],
    [['keys', 'delete', '1.5', '--yes'], /Invalid key id/],
    [['keys', 'update', '3'], /Nothing to change/],
    [['keys', 'update', '3', '--active', '--inactive'], /cannot be used together/],
    [['keys', 'update', '3', '--expires-at', 'tomorrow'], /Invalid --expires-at 'tomorrow'/],
    [['keys', 'create', '--expires-at', 'none'], /Invalid --expires-at 'none'/],
  ];
  for (const [argv, message] of bad) {
    it(`refuses ${argv.join(' ')} with exit 2, sending nothing`, async () => {
      const { agent, env } = mockApi();
      const res = await runCli(argv, { env, dispatcher: agent });
      expect(res.stderr).toMatch(message);
      expect(res.code).toBe(2);
    });
  }
});
