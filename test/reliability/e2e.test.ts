import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configureOAuth } from '../../src/sandbox/oauth/store.js';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { faults, figures, ledgerMark } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

/**
 * End-to-end (the built bin/creators.js): Ctrl-C mid-run leaves every output file complete or absent
 * and every input untouched; secrets never appear in stdout, stderr or the --debug log; the login
 * listener is loopback-only and refuses a wrong state; the credential file is 0600.
 */
const sb = useSandbox({
  seed: 8,
  credits: 100_000,
  dailyDiscoveryLimit: 100_000,
  batchRowsPerSecond: 100_000,
  rateLimit: 100_000,
});
const tmp = (): string => tempDir('creators-rel-e2e-');
const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');
const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  ...sandboxEnv(sb.get()),
  CREATORS_CONFIG_DIR: tmp(),
  ...extra,
});

/**
 * Spawns the CLI and sends SIGINT as soon as the sandbox has seen its first faulted request (the run is
 * under way, a request is on the wire). At once, not after a pause: a loaded machine could let a short
 * run finish during the pause, and the exit would then be 0.
 */
function interrupt(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env() },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const poll = setInterval(() => {
      if ((figures(sb.get()).rules[0]?.injected ?? 0) > 0) {
        clearInterval(poll);
        child.kill('SIGINT');
      }
    }, 20);
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(kill);
      resolve({ code, stdout: out, stderr: err });
    });
  });
}

/** Spawns `creators login --no-browser` and resolves `url` with the authorize URL it prints. */
function spawnLogin(
  extra: string[],
  e: Record<string, string>,
): { url: Promise<string>; exit: Promise<number | null>; out: () => string; err: () => string } {
  const child = spawn(process.execPath, [BIN, 'login', '--no-browser', ...extra], {
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', ...e },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const url = new Promise<string>((resolve) =>
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /http:\/\/\S+\/oauth\/authorize\/\S+/.exec(err);
      if (m) resolve(m[0]);
    }),
  );
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { url, exit, out: () => out, err: () => err };
}

describe('Ctrl-C mid-run: outputs complete or absent, inputs untouched', () => {
  it('search --all -o: exit 130, the creators paid for committed as a whole CSV marked partial, no temporary file', async () => {
    faults(sb.get(), 'trickle:100 POST /public/v1/discovery/');
    const dir = tmp();
    const mark = ledgerMark(sb.get());
    const res = await interrupt([
      'search',
      '--platform',
      'instagram',
      '--all',
      '--limit',
      '20',
      '--max-results',
      '400',
      '-o',
      join(dir, 'out.csv'),
    ]);
    faults(sb.get(), '');
    expect(res.code).toBe(130);
    // The page on its way when Ctrl-C came is finished (it is charged either way) and kept with the others.
    const { parse } = await import('csv-parse/sync');
    const rows = parse(readFileSync(join(dir, 'out.csv')), { columns: true }) as Record<string, string>[];
    const charged = mark.since().milli;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(charged / 10);
    expect(res.stderr).toContain(
      `Spent ${charged / 1000} credits in this run; ${rows.length} creators kept in ${join(dir, 'out.csv')}, a partial result`,
    );
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('enrich --input -o: exit 130, output complete or absent, the input byte-for-byte the same', async () => {
    // Each row held 1 s: 40 rows cannot all be done between the first arrival and the SIGINT.
    faults(sb.get(), 'delay:1000 POST /public/v1/creators/enrich/**');
    const dir = tmp();
    const input = join(dir, 'in.csv');
    const names = sb
      .get()
      .state.creators.list('instagram')
      .slice(0, 40)
      .map((c) => c.profile.username);
    writeFileSync(input, `handle,note\r\n${names.map((n) => `${n},"keep ""me"""`).join('\r\n')}\r\n`);
    const before = sha(input);
    const res = await interrupt([
      'enrich',
      'handle',
      '--input',
      input,
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '-o',
      join(dir, 'out.csv'),
    ]);
    faults(sb.get(), '');
    expect(res.code).toBe(130);
    // Complete or absent: enrich keeps the rows it paid for, committed atomically as a whole CSV of
    // the first N input rows in order, and says how many; never a torn file.
    const out = join(dir, 'out.csv');
    if (existsSync(out)) {
      const { parse } = await import('csv-parse/sync');
      const rows = parse(readFileSync(out), { columns: true }) as { handle: string; note: string; status: string }[];
      const n = Number(/Interrupted: (\d+) rows? written/.exec(res.stderr)?.[1]);
      expect(rows).toHaveLength(n);
      expect(rows.map((r) => r.handle)).toEqual(names.slice(0, n));
      expect(rows.every((r) => r.note === 'keep "me"' && ['ok', 'not_found'].includes(r.status))).toBe(true);
    }
    expect(readdirSync(dir).filter((f) => f !== 'in.csv' && f !== 'out.csv')).toEqual([]);
    expect(sha(input)).toBe(before);
  });

  it('batch download -o while the body trickles: exit 130, no partial file', async () => {
    const dir = tmp();
    const input = join(dir, 'in.csv');
    writeFileSync(input, `handle\n${Array.from({ length: 500 }, (_, i) => `sigint_user_${i}`).join('\n')}\n`);
    const before = sha(input);
    const opts = { env: sandboxEnv(sb.get()) };
    const id = (
      await runCli(['batch', 'upload', input, '--mode', 'raw', '--platform', 'instagram'], opts)
    ).stdout.trim();
    expect((await runCli(['batch', 'poll', id, '--interval', '1'], opts)).code).toBe(0);
    faults(sb.get(), 'trickle:400 GET target=files');
    const res = await interrupt(['batch', 'download', id, '-o', join(dir, 'out.csv')]);
    faults(sb.get(), '');
    expect(res.code).toBe(130);
    expect(readdirSync(dir)).toEqual(['in.csv']);
    expect(sha(input)).toBe(before);
  });
});

/** Every secret in play must be absent from everything the CLI printed. */
function expectNoSecrets(outputs: string[], secrets: string[]): void {
  const all = outputs.join('\n');
  for (const secret of secrets.filter((s) => s.length >= 8))
    expect(all.includes(secret), `secret ${secret.slice(0, 6)}… leaked`).toBe(false);
  expect(all).not.toMatch(/code_verifier["=:\s]+[A-Za-z0-9\-._~]{43}/);
  expect(all).not.toMatch(/Bearer [A-Za-z0-9_]{12,}/);
}

describe('secrets', () => {
  it('login, then every command with --debug: no key, token, code or verifier in any output; file 0600', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const e = env();
    delete e.CREATORS_API_KEY;
    const login = spawnLogin(['--debug'], e);
    const authorizeUrl = new URL(await login.url);
    const exit = login.exit;
    const redirect = new URL(authorizeUrl.searchParams.get('redirect_uri') as string);
    expect(redirect.hostname).toBe('127.0.0.1');
    // Bound to 127.0.0.1 only: another loopback address on the same port is refused.
    const other = await new Promise<string>((resolve) => {
      const s = connect(Number(redirect.port), '127.0.0.2');
      s.once('connect', () => (s.destroy(), resolve('connected')));
      s.once('error', (x: NodeJS.ErrnoException) => resolve(x.code ?? 'error'));
    });
    expect(other).not.toBe('connected');
    const location = (await fetch(authorizeUrl, { redirect: 'manual' })).headers.get('location') as string;
    const code = new URL(location).searchParams.get('code') as string;
    expect((await fetch(location)).status).toBe(200);
    expect(await exit).toBe(0);

    const file = join(e.CREATORS_CONFIG_DIR as string, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = readFileSync(file, 'utf8');
    const tokens = [...stored.matchAll(/"(?:access_token|refresh_token)":\s*"([^"]+)"/g)].map((m) => m[1] as string);
    expect(tokens.length).toBeGreaterThanOrEqual(2); // access and refresh

    const outputs = [login.out(), login.err()];
    const keyEnv = { ...e, CREATORS_API_KEY: sb.get().apiKey };
    for (const [args, useKey] of [
      [['auth', 'status', '--debug'], false],
      [['auth', 'status', '--json', '--debug'], false],
      [['credits', '--debug'], false],
      [['config', 'list', '--debug'], false],
      [['search', '--platform', 'instagram', '--limit', '2', '--debug'], true],
      [['keys', 'list', '--debug'], true],
      [['events', 'list', '--debug'], true],
      [['api', 'accounts/credits', '--debug'], true],
    ] as [string[], boolean][]) {
      const r = await spawnCli(args, useKey ? keyEnv : e);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      outputs.push(r.stdout, r.stderr);
    }
    expect(outputs.join('\n')).toContain('> GET'); // the debug log was really on
    expectNoSecrets(outputs, [...tokens, code, sb.get().apiKey]);
  });

  it('a redirect with the wrong state is ignored (error page, nothing stored); the real one then logs in', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const e = env();
    delete e.CREATORS_API_KEY;
    const login = spawnLogin([], e);
    const authorizeUrl = new URL(await login.url);
    const exit = login.exit;
    const location = new URL((await fetch(authorizeUrl, { redirect: 'manual' })).headers.get('location') as string);
    const forged = new URL(location.href);
    forged.searchParams.set('state', 'forged-state');
    const page = await fetch(forged);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('does not belong to the login in progress');
    const file = join(e.CREATORS_CONFIG_DIR as string, 'config.json');
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '').not.toMatch(/sbx_oat_/);
    const real = await fetch(location);
    expect(await real.text()).toContain('Logged in');
    expect(await exit).toBe(0);
    expect(login.err()).toContain('Ignored a request to the login listener with a state that does not match');
    expect(readFileSync(file, 'utf8')).toMatch(/sbx_oat_/);
  });
});

describe('creators sandbox --faults (the built CLI)', () => {
  it('starts with the rules in force and reports the counts at /_sandbox/faults', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--faults', '503 GET /public/v1/accounts/* count=1'], {
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp' },
    });
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    const { base_url: url, api_key: key } = JSON.parse(line) as { base_url: string; api_key: string };
    const auth = { authorization: `Bearer ${key}` };
    expect((await fetch(`${url}/public/v1/accounts/credits/`, { headers: auth })).status).toBe(503);
    expect((await fetch(`${url}/public/v1/accounts/credits/`, { headers: auth })).status).toBe(200);
    expect(await (await fetch(`${url}/_sandbox/faults`)).json()).toMatchObject({ total: 1, injected: { '503': 1 } });
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGINT');
    expect(await code).toBe(0);
    clearTimeout(kill);
  });
});
