import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { configureOAuth, oauthState } from '../../src/sandbox/oauth/store.js';
import { timeoutText } from '../../src/lib/auth/login.js';
import { browserDouble } from '../lib/auth/browser-double.js';
import { runInteractive } from '../lib/auth/interactive.js';

const sb = useSandbox({ seed: 7 });

function stored(configDir: string, profile = 'default'): Record<string, any> {
  const file = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
  return file.profiles?.[profile] ?? {};
}

describe('creators login (browser)', () => {
  let configDir: string;
  let env: Record<string, string>;
  beforeEach(() => {
    configDir = tempConfigDir();
    env = { CREATORS_BASE_URL: sb.get().url };
    configureOAuth(sb.get().state, { autoApprove: null, accessTokenTtl: 3600 });
  });

  it('logs in through the consent page and then works as the credential', async () => {
    const browser = browserDouble();
    const res = await runCli(['login'], { env, configDir, openBrowser: browser.opener });
    await browser.done();
    expect(res.stderr).toContain('Logged in to');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    const url = new URL(browser.opened[0] as string);
    expect(url.pathname).toBe('/public/v1/oauth/authorize/');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('all');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(browser.pages[0]?.body).toContain('Logged in');

    const profile = stored(configDir);
    expect(profile.oauth.access_token).toMatch(/^sbx_oat_/);
    expect(profile.oauth.refresh_token).toMatch(/^sbx_ort_/);
    // The fake clock of runCli starts at 10:00 and only moves with (instant) pacing sleeps.
    expect(profile.oauth.expires_at - Date.parse('2026-11-22T11:00:00Z')).toBeGreaterThanOrEqual(0);
    expect(profile.oauth.expires_at - Date.parse('2026-11-22T11:00:00Z')).toBeLessThan(5000);
    expect(profile['oauth-clients'][`${sb.get().url}/`].client_id).toBe(url.searchParams.get('client_id'));
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    // No secret reaches the terminal.
    for (const secret of [
      profile.oauth.access_token,
      profile.oauth.refresh_token,
      browser.redirects[0]?.searchParams.get('code'),
    ]) {
      expect(res.stderr).not.toContain(secret);
    }

    const credits = await runCli(['credits', '--json'], { env, configDir });
    expect(credits.code).toBe(0);
    const status = await runCli(['auth', 'status', '--json'], { env, configDir });
    expect(status.code).toBe(0);
    expect(status.json()).toMatchObject({
      authenticated: true,
      credential_source: 'login',
      credential_kind: 'oauth',
      expires_at: expect.stringMatching(/^2026-11-22T11:00:0/),
      expired: false,
      refreshable: true,
      live_check: 'ok',
    });
    expect(status.stdout).not.toContain(profile.oauth.access_token);
    // On a terminal the expiry is a time like every other: local, the zone named, not raw ISO.
    const shown = await runCli(['auth', 'status', '--no-color'], { env, configDir, tty: true, columns: 100 });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/│ Expires +│ 2026-11-2\d \d\d:\d\d [A-Z+\-0-9]+ +│/);
    expect(shown.stdout).toMatch(/│ Refreshable +│ yes +│/);
    const token = await runCli(['auth', 'token'], { env, configDir });
    expect(token.stdout).toBe(`${profile.oauth.access_token}\n`);
  });

  describe('expiry times for people', () => {
    // This file runs in its own process (the vitest pool is `forks`): TZ is set for these tests only.
    const savedTz = process.env.TZ;
    afterEach(() => {
      if (savedTz === undefined) delete process.env.TZ;
      else process.env.TZ = savedTz;
    });

    it('login and auth status on a terminal show the expiry in the local zone, named; --json keeps ISO', async () => {
      process.env.TZ = 'America/New_York';
      const browser = browserDouble();
      const res = await runCli(['login'], { env, configDir, openBrowser: browser.opener });
      await browser.done();
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/The access token is valid until 2026-11-22 06:00 EST and refreshes itself\./);
      const status = await runCli(['auth', 'status', '--no-color'], { env, configDir, tty: true, columns: 120 });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(/Expires\s+│ 2026-11-22 06:00 EST/);
      const json = await runCli(['auth', 'status', '--json'], { env, configDir });
      expect(json.json<{ expires_at: string }>().expires_at).toMatch(/^2026-11-22T11:00:0\d\.\d{3}Z$/);
    });
  });

  it('the login timeout in words: seconds, 1 minute, minutes', () => {
    expect(timeoutText(50)).toBe('0.05 s');
    expect(timeoutText(1_500)).toBe('1.5 s');
    expect(timeoutText(45_000)).toBe('45 s');
    expect(timeoutText(60_000)).toBe('1 minute');
    expect(timeoutText(90_000)).toBe('1.5 minutes');
    expect(timeoutText(300_000)).toBe('5 minutes');
  });

  it('listens on a new random port each login (a new client for it); --port reuses the client registered for that port', async () => {
    const clients = oauthState(sb.get().state).clients;
    const first = browserDouble();
    expect((await runCli(['login'], { env, configDir, openBrowser: first.opener })).code).toBe(0);
    const second = browserDouble();
    expect((await runCli(['login'], { env, configDir, openBrowser: second.opener })).code).toBe(0);
    const a = new URL(first.opened[0] as string).searchParams;
    const b = new URL(second.opened[0] as string).searchParams;
    expect(b.get('redirect_uri')).not.toBe(a.get('redirect_uri'));
    expect(new URL(b.get('redirect_uri') as string).hostname).toBe('127.0.0.1');
    // The service matches redirect URIs exactly: each port has its own registration.
    expect(b.get('client_id')).not.toBe(a.get('client_id'));
    expect(clients.get(b.get('client_id') as string)?.redirect_uris).toEqual([b.get('redirect_uri')]);
    expect(b.get('state')).not.toBe(a.get('state'));

    const port = String(new URL(b.get('redirect_uri') as string).port);
    const count = clients.size;
    const fixed = browserDouble();
    const res = await runCli(['login', '--port', port], { env, configDir, openBrowser: fixed.opener });
    expect(res.code, res.stderr).toBe(0);
    const c = new URL(fixed.opened[0] as string).searchParams;
    expect(c.get('redirect_uri')).toBe(b.get('redirect_uri'));
    expect(c.get('client_id')).toBe(b.get('client_id'));
    expect(clients.size).toBe(count);
  });

  it('the consent page and every page of the login listener forbid framing and send a CSP', async () => {
    const browser = browserDouble({
      tamper: async (u) => {
        const forged = new URL(u.href);
        forged.searchParams.set('state', 'forged');
        const ignored = await fetch(forged);
        expect(ignored.status).toBe(400);
        for (const h of [ignored.headers]) {
          expect(h.get('x-frame-options')).toBe('DENY');
          expect(h.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
        }
        return u;
      },
    });
    const res = await runCli(['login'], { env, configDir, openBrowser: browser.opener });
    await browser.done();
    expect(res.code, res.stderr).toBe(0);
    const consent = browser.consentHeaders[0] as Headers;
    expect(consent.get('x-frame-options')).toBe('DENY');
    expect(consent.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    const callback = browser.pages[0]?.headers as Headers;
    expect(browser.pages[0]?.body).toContain('Logged in');
    expect(callback.get('x-frame-options')).toBe('DENY');
    expect(callback.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(callback.get('cache-control')).toBe('no-store');
  });

  it('denied consent: exit 4 with access_denied, nothing stored', async () => {
    const browser = browserDouble({ decision: 'deny' });
    const res = await runCli(['login'], { env, configDir, openBrowser: browser.opener });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/Login failed: access_denied: access was denied in the browser/);
    expect(stored(configDir).oauth).toBeUndefined();
    await browser.done();
    expect(browser.pages[0]?.body).toContain('Login failed');
  });

  it('a callback with another state (or none) is ignored with an error page; the real redirect still completes the login', async () => {
    const hostile = 'Login failed \u001b]0;pwned\u0007 call +1-555';
    const answers: { status: number; body: string }[] = [];
    const browser = browserDouble({
      tamper: async (u) => {
        // Any local process or web page can reach the listener before the browser does.
        const listener = `${u.origin}${u.pathname}`;
        for (const query of [
          new URLSearchParams({ error: 'access_denied', error_description: hostile, state: 'wrong' }),
          new URLSearchParams({ error: 'access_denied', error_description: hostile }),
          new URLSearchParams({ code: 'sbx_code_attacker', state: 'wrong' }),
        ]) {
          const r = await fetch(`${listener}?${query}`);
          answers.push({ status: r.status, body: await r.text() });
        }
        return u;
      },
    });
    const res = await runCli(['login'], { env, configDir, openBrowser: browser.opener });
    await browser.done();
    expect(res.code, res.stderr).toBe(0);
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400]);
    for (const a of answers) {
      expect(a.body).toContain('does not belong to the login in progress');
      expect(a.body).not.toContain('pwned');
    }
    expect(browser.pages[0]?.body).toContain('Logged in');
    expect(stored(configDir).oauth.access_token).toMatch(/^sbx_oat_/);
    expect(res.stderr).not.toContain('pwned');
    expect(res.stderr).toMatch(/Ignored a request to the login listener with a state that does not match/);
    expect(res.stderr).toMatch(/Ignored a request to the login listener with no state/);
  });

  it('a code already redeemed elsewhere gives invalid_grant (exit 4)', async () => {
    const browser = browserDouble({
      tamper: async (u) => {
        // Someone else redeems the code first (with the wrong verifier, burning it).
        const q = new URLSearchParams({
          grant_type: 'authorization_code',
          code: u.searchParams.get('code') as string,
          code_verifier: 'x'.repeat(43),
          client_id: new URL(browser.opened[0] as string).searchParams.get('client_id') as string,
          redirect_uri: `${u.origin}${u.pathname}`,
        });
        await fetch(`${sb.get().url}/public/v1/oauth/token/`, { method: 'POST', body: q });
        return u;
      },
    });
    const res = await runCli(['login'], { env, configDir, openBrowser: browser.opener });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/Could not exchange the authorization code \(HTTP 400\): invalid_grant/);
    expect(stored(configDir).oauth).toBeUndefined();
  });

  it('times out with a clear message when the browser never comes back', async () => {
    const res = await runCli(['login', '--login-timeout', '0.05'], { env, configDir, openBrowser: async () => {} });
    expect(res.code).toBe(4);
    // The one message, with the timeout as asked: it said `after 0 s` (rounded to whole seconds), which the
    // test accepted beside any other `Login timed out`.
    expect(res.stderr).toContain('Login timed out after 0.05 s without an answer from the browser.');
    expect(res.stderr).toContain('Run `creators login` again (with --no-browser to paste the redirect by hand).');
    expect(stored(configDir).oauth).toBeUndefined();
  });

  it('prints the URL and keeps waiting when the browser cannot be opened', async () => {
    const browser = browserDouble({ fail: true });
    const res = await runCli(['login', '--login-timeout', '0.05'], { env, configDir, openBrowser: browser.opener });
    expect(res.stderr).toContain(browser.opened[0]);
    expect(res.stderr).toContain('Could not open a browser');
    expect(res.code).toBe(4);
  });

  it('over SSH the browser is not opened: the URL is printed and a paste is awaited', async () => {
    const browser = browserDouble();
    const res = await runCli(['login', '--login-timeout', '0.05'], {
      env: { ...env, SSH_TTY: '/dev/pts/1' },
      configDir,
      openBrowser: browser.opener,
    });
    expect(browser.opened).toEqual([]);
    expect(res.stderr).toMatch(
      /Open this URL in a browser to log in:\n\n {2}http:\/\/127\.0\.0\.1:\d+\/public\/v1\/oauth\/authorize\/\?/,
    );
    expect(res.stderr).toContain('paste the full address');
    expect(res.code).toBe(4);
  });

  it('rejects a bad --port before anything is sent (exit 2)', async () => {
    const res = await runCli(['login', '--port', '70000'], { env, configDir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/Invalid --port '70000'/);
  });

  it('--debug never shows the code, verifier or tokens', async () => {
    const browser = browserDouble();
    const res = await runCli(['login', '--debug'], { env, configDir, openBrowser: browser.opener });
    expect(res.code).toBe(0);
    const oauth = stored(configDir).oauth;
    expect(res.stderr).toContain('[debug] > POST');
    expect(res.stderr).toMatch(/code_verifier=REDACTED/);
    for (const secret of [oauth.access_token, oauth.refresh_token, browser.redirects[0]?.searchParams.get('code')]) {
      expect(res.stderr).not.toContain(secret);
    }
  });
});

describe('creators login --dry-run', () => {
  it('a first login prints the client registration as the plan and registers, opens and stores nothing', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const configDir = tempConfigDir();
    const env = { CREATORS_BASE_URL: sb.get().url };
    const clients = oauthState(sb.get().state).clients.size;
    const browser = browserDouble();
    const res = await runCli(['login', '--dry-run', '--json'], { env, configDir, openBrowser: browser.opener });
    expect(res.code).toBe(0);
    const plan = res.json<{
      dry_run: boolean;
      method: string;
      url: string;
      body: { client_name: string; redirect_uris: string[]; scope: string };
      worst_case_credits: number;
    }>();
    expect(plan).toMatchObject({
      dry_run: true,
      method: 'POST',
      url: `${sb.get().url}/public/v1/oauth/register/`,
      worst_case_credits: 0,
    });
    expect(plan.body).toMatchObject({ client_name: 'creators CLI', scope: 'all' });
    expect(plan.body.redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(browser.opened).toEqual([]);
    expect(oauthState(sb.get().state).clients.size).toBe(clients);
    expect(res.stderr).not.toContain('Logged in');
    expect(existsSync(join(configDir, 'config.json')) ? stored(configDir) : {}).toEqual({});
  });

  it('with a registered client prints the code exchange (secrets redacted) and keeps the stored login', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const configDir = tempConfigDir();
    const env = { CREATORS_BASE_URL: sb.get().url };
    expect((await runCli(['login'], { env, configDir, openBrowser: browserDouble().opener })).code).toBe(0);
    const before = stored(configDir);
    const clients = oauthState(sb.get().state).clients.size;
    const browser = browserDouble();
    // The client is registered for one port: the same --port finds it.
    const port = new URL(before['oauth-clients'][`${sb.get().url}/`].redirect_uri).port;
    const res = await runCli(['login', '--dry-run', '--port', port], {
      env,
      configDir,
      openBrowser: browser.opener,
      stdoutTTY: true,
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(`^Dry run: nothing was sent\\.\\nPOST ${sb.get().url}/public/v1/oauth/token/\\n`),
    );
    expect(res.stdout).toContain('"grant_type": "authorization_code"');
    expect(res.stdout).toContain(`"client_id": "${before.oauth.client_id}"`);
    expect(res.stdout).toContain('"code": "REDACTED"');
    expect(res.stdout).toContain('"code_verifier": "REDACTED"');
    expect(res.stdout).toContain('Worst-case cost: 0 credits');
    expect(browser.opened).toEqual([]);
    expect(oauthState(sb.get().state).clients.size).toBe(clients);
    expect(stored(configDir)).toEqual(before);
  });
});

describe('creators login --no-browser (pasted redirect)', () => {
  it('accepts the pasted redirect URL', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const configDir = tempConfigDir();
    const run = runInteractive(['login', '--no-browser'], { env: { CREATORS_BASE_URL: sb.get().url }, configDir });
    const [url] = await run.waitFor(/http:\/\/\S+\/oauth\/authorize\/\S+/);
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location') as string;
    // The browser is on another machine: the loopback page never loads, the address is pasted.
    run.stdin.write(`${location}\n`);
    expect(await run.done).toBe(0);
    expect(stored(configDir).oauth.access_token).toMatch(/^sbx_oat_/);
  });

  it('accepts a bare code', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const configDir = tempConfigDir();
    const run = runInteractive(['login', '--no-browser'], { env: { CREATORS_BASE_URL: sb.get().url }, configDir });
    const [url] = await run.waitFor(/http:\/\/\S+\/oauth\/authorize\/\S+/);
    const location = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location') as string);
    run.stdin.write('not a code!\n');
    await run.waitFor(/neither the redirect address nor a code/);
    run.stdin.write(`${location.searchParams.get('code')}\n`);
    expect(await run.done).toBe(0);
    expect(stored(configDir).oauth.refresh_token).toMatch(/^sbx_ort_/);
  });

  it('a pasted redirect with another state is refused', async () => {
    configureOAuth(sb.get().state, { autoApprove: 'approve' });
    const configDir = tempConfigDir();
    const run = runInteractive(['login', '--no-browser'], { env: { CREATORS_BASE_URL: sb.get().url }, configDir });
    const [url] = await run.waitFor(/http:\/\/\S+\/oauth\/authorize\/\S+/);
    const location = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location') as string);
    location.searchParams.set('state', 'other');
    run.stdin.write(`${location.href}\n`);
    expect(await run.done).toBe(4);
    expect(run.stderr()).toMatch(/state in the redirect does not match/);
  });
});
