/**
 * The sandbox as a server: it is the default for demos and CI, so a web page, another host or a
 * hostile script must not be able to change it, read it, steer its OAuth codes or hang it.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { buildRouter, startSandbox } from '../../src/sandbox/server.js';
import { parseFaultSpec, pathMatches } from '../../src/sandbox/faults/rules.js';
import { batchWorld } from '../../src/sandbox/batch/jobs.js';
import { configureOAuth, oauthState } from '../../src/sandbox/oauth/store.js';
import { runCli } from '../helpers/run-cli.js';
import { useSandbox, type StartedSandbox } from '../helpers/sandbox.js';
import { call } from './helpers.js';

const box = useSandbox({ seed: 3, allowRedirects: ['https://app.example/callback'] });
const JSON_TYPE = { 'Content-Type': 'application/json' };

interface Raw {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One exchange with exactly the Host header given (`undefined`: none at all), on a fresh connection. */
function raw(
  origin: string,
  path: string,
  host: string | undefined,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: 'close', ...init.headers };
    if (host !== undefined) headers.host = host;
    const req = request(
      `${origin}${path}`,
      { method: init.method ?? 'GET', headers, setHost: false, agent: false },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const portOf = (sb: StartedSandbox): string => new URL(sb.url).port;
const balance = (sb: StartedSandbox): number => sb.state.ledger.balanceMilli;

describe('control routes take JSON only (no cross-site form or text/plain posts)', () => {
  const changes = buildRouter()
    .routes()
    .filter((r) => r.pattern.startsWith('/_sandbox/') && r.method !== 'GET')
    .map((r) => [r.method, r.pattern] as const);

  it('lists the control routes that change something', () => {
    expect(changes.map(([m, p]) => `${m} ${p}`).sort()).toEqual(
      [
        'DELETE /_sandbox/faults',
        'POST /_sandbox/batch',
        'POST /_sandbox/config',
        'POST /_sandbox/faults',
        'POST /_sandbox/listening/advance',
        'POST /_sandbox/listening/config',
        'POST /_sandbox/listening/seed',
        'POST /_sandbox/oauth',
      ].sort(),
    );
  });

  it.each(changes)('%s %s refuses text/plain with 415', async (method, path) => {
    const res = await call(box.get(), path, {
      method,
      auth: null,
      body: '{}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect((res.body as { detail: string }).detail).toBe(
      'Unsupported media type "text/plain" in request: the sandbox control routes take Content-Type: application/json.',
    );
  });

  it('a text/plain {"credits":0} from a web page leaves the balance alone; the same as JSON works', async () => {
    const sb = box.get();
    const before = balance(sb);
    expect(before).toBeGreaterThan(0);
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await raw(sb.url, '/_sandbox/config', `127.0.0.1:${portOf(sb)}`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: '{"credits":0}',
      });
      expect(res.status).toBe(415);
    }
    expect(balance(sb)).toBe(before);
    const ledger = JSON.parse((await raw(sb.url, '/_sandbox/ledger', `127.0.0.1:${portOf(sb)}`)).body) as {
      balance_milli: number;
    };
    expect(ledger.balance_milli).toBe(before);
    const json = await call(sb, '/_sandbox/config', {
      method: 'POST',
      auth: null,
      body: JSON.stringify({ credits: before / 1000 }),
    });
    expect(json.status).toBe(200);
  });
});

describe('the Host header must be this loopback listener (DNS rebinding)', () => {
  it.each([
    ['GET', '/_sandbox/ledger'],
    ['POST', '/_sandbox/config'],
    ['GET', '/public/v1/accounts/credits/'],
    ['POST', '/public/v1/oauth/register/'],
    ['GET', '/no/such/route'],
  ])('Host: evil.example on %s %s is a 421 with a JSON detail, and nothing changes', async (method, path) => {
    const sb = box.get();
    const before = balance(sb);
    const res = await raw(sb.url, path, `evil.example:${portOf(sb)}`, {
      method,
      headers: { ...JSON_TYPE, authorization: `Bearer ${sb.apiKey}` },
      body: method === 'POST' ? '{"credits":0}' : undefined,
    });
    expect(res.status).toBe(421);
    expect(JSON.parse(res.body)).toEqual({
      detail: `The sandbox answers only to 127.0.0.1:${portOf(sb)}, localhost:${portOf(sb)} or [::1]:${portOf(sb)}; Host 'evil.example:${portOf(sb)}' was refused (DNS rebinding protection).`,
    });
    expect(balance(sb)).toBe(before);
  });

  it('accepts 127.0.0.1, localhost and [::1] with the listening port; refuses other ports, look-alikes and no Host', async () => {
    const sb = box.get();
    const port = portOf(sb);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await raw(sb.url, '/_sandbox/ledger', host)).status, host).toBe(200);
    }
    const other = String(Number(port) === 65535 ? 1 : Number(port) + 1);
    for (const host of [
      `127.0.0.1:${other}`,
      '127.0.0.1',
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `evil.example`,
      `[::2]:${port}`,
      '',
    ]) {
      expect((await raw(sb.url, '/_sandbox/ledger', host)).status, host).toBe(421);
    }
    expect((await raw(sb.url, '/_sandbox/ledger', undefined, { headers: {} })).status).not.toBe(200);
  });

  it('the batch file host (results with emails) checks the Host too', async () => {
    const sb = box.get();
    const files = batchWorld(sb.state).fileOrigin;
    const res = await raw(
      files,
      '/batch-results/00000000000000000000000000000000/x.csv',
      `evil.example:${new URL(files).port}`,
    );
    expect(res.status).toBe(421);
    expect(res.body).toContain('<Code>MisdirectedRequest</Code>');
    expect(
      (await raw(files, '/batch-results/00000000000000000000000000000000/x.csv', `127.0.0.1:${new URL(files).port}`))
        .status,
    ).toBe(403);
  });
});

describe('OAuth redirect URIs are loopback unless allowed at start-up', () => {
  const register = (uris: string[], sb = box.get()) =>
    call(sb, '/public/v1/oauth/register/', {
      method: 'POST',
      auth: null,
      body: JSON.stringify({ client_name: 'x', redirect_uris: uris }),
    });

  it.each([
    ['https://evil.example/cb'],
    ['http://evil.example/cb'],
    ['http://127.0.0.1.evil.example/cb'],
    ['https://127.0.0.1/cb'],
    ['http://user@127.0.0.1:1/cb'],
  ])('refuses %s (400, no client registered)', async (uri) => {
    const before = oauthState(box.get().state).clients.size;
    const res = await register(['http://127.0.0.1:1234/callback', uri]);
    expect(res.status).toBe(400);
    const message = (res.body as { error: { redirect_uris: string[] } }).error.redirect_uris[0];
    expect(message).toContain(`Not allowed: ${uri}.`);
    expect(message).toContain('--allow-redirect <url>');
    expect(oauthState(box.get().state).clients.size).toBe(before);
  });

  it.each([
    ['http://127.0.0.1:53682/callback'],
    ['http://localhost:8080/cb'],
    ['http://[::1]:9/x'],
    ['http://127.0.0.1/cb'],
  ])('accepts loopback %s', async (uri) => {
    expect((await register([uri])).status).toBe(201);
  });

  it('accepts a URI named by allowRedirects (--allow-redirect), exactly; without it the same URI is refused', async () => {
    expect((await register(['https://app.example/callback'])).status).toBe(201);
    expect((await register(['https://app.example/callback/other'])).status).toBe(400);
    const plain = await startSandbox({ port: 0 });
    try {
      expect((await register(['https://app.example/callback'], plain)).status).toBe(400);
    } finally {
      await plain.close();
    }
  });

  it('auto-approve sends a code to a loopback URI only; an allowed remote URI gets the consent page, no code', async () => {
    const sb = box.get();
    configureOAuth(sb.state, { autoApprove: 'approve' });
    try {
      const authorize = async (redirect: string): Promise<Raw> => {
        const clientId = ((await register([redirect])).body as { client_id: string }).client_id;
        const q = new URLSearchParams({
          client_id: clientId,
          redirect_uri: redirect,
          response_type: 'code',
          code_challenge: 'a'.repeat(43),
          state: 's',
        });
        return raw(sb.url, `/public/v1/oauth/authorize/?${q}`, `127.0.0.1:${portOf(sb)}`);
      };
      const local = await authorize('http://127.0.0.1:40000/callback');
      expect(local.status).toBe(302);
      expect(String(local.headers.location)).toMatch(/^http:\/\/127\.0\.0\.1:40000\/callback\?code=/);
      const remote = await authorize('https://app.example/callback');
      expect(remote.status).toBe(200);
      expect(remote.headers.location).toBeUndefined();
      expect(remote.body).toContain('Approve');
      expect(remote.body).not.toMatch(/code=/);
    } finally {
      configureOAuth(sb.state, { autoApprove: null });
    }
  });

  it('creators sandbox refuses an --allow-redirect that is not an http(s) URL (exit 2)', async () => {
    const res = await runCli(['sandbox', '--allow-redirect', 'javascript:alert(1)']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Invalid --allow-redirect 'javascript:alert\(1\)': expected an http\(s\) URL/);
  });
});

describe('fault paths are globs, never regular expressions', () => {
  it.each([
    ['/public/v1/accounts/*', '/public/v1/accounts/credits/', true],
    ['/public/v1/accounts/*', '/public/v1/accounts/credits/?x=1', true],
    ['/public/v1/*', '/public/v1/enrichment/batch/', false],
    ['/public/v1/**', '/public/v1/enrichment/batch/b1/status/', true],
    ['/public/v1/**/status/', '/public/v1/enrichment/batch/b1/status/', true],
    ['/public/v1/enrichment/**/status/', '/public/v1/enrichment/status/', true],
    ['/public/v1/discovery/', '/public/v1/discovery/creators/similar/', false],
    ['/public/v1/discovery', '/public/v1/discovery/', true],
    ['/a?c/', '/abc/', true],
    ['/a?c/', '/a/c/', false],
    ['/a.c/', '/abc/', false],
    ['/(a+)+$', '/aaaa', false],
    ['*', '/anything/at/all/', true],
  ])('%s against %s: %s', (pattern, path, expected) => {
    expect(pathMatches(pattern, path)).toBe(expected);
  });

  it('a pathological glob against a long path still answers (no backtracking)', () => {
    const pattern = `/${'*a'.repeat(200)}/b`;
    expect(parseFaultSpec(`503 GET ${pattern}`)[0]?.path).toBe(pattern);
    expect(pathMatches(pattern, `/${'a'.repeat(5000)}`)).toBe(false);
  });

  it('a ~regex rule is refused at start-up as a usage error (exit 2), nothing listens', async () => {
    const res = await runCli(['sandbox', '--faults', '503 GET ~^/(a+)+$']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /^error: Invalid --faults: faults rule 1: '~\^\/\(a\+\)\+\$': regular expressions are not accepted; use a path glob/,
    );
    expect(res.stdout).toBe('');
  });

  it('startSandbox and POST /_sandbox/faults refuse it too (the JSON form included)', async () => {
    await expect(startSandbox({ port: 0, faults: '503 ~^/(a+)+$' })).rejects.toThrow(
      /regular expressions are not accepted/,
    );
    const res = await call(box.get(), '/_sandbox/faults', {
      method: 'POST',
      auth: null,
      body: JSON.stringify({ rules: [{ kind: '503', path: '~^/(a+)+$' }] }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('regular expressions are not accepted');
    expect((await call(box.get(), '/_sandbox/faults', { auth: null })).body).toMatchObject({ rules: [] });
  });

  it.each([
    ['delay:1000000000000', /ms must be at most 600000/],
    ['503 count=1e300', /count must be at most 1000000000/],
    ['429:99999999', /retry_after must be an integer from 0 to 86400/],
    ['[{"kind": "503", "path": "public/v1/"}]', /path 'public\/v1\/' must start with \//],
  ])('refuses %j', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });
});

describe('numbers on the control routes are bounded', () => {
  it.each([[1e308], [-1], ['x'], [1e9 + 1], [0.0001], [null], [true]])(
    'credits %j is a 400 and the balance is unchanged',
    async (credits) => {
      const sb = box.get();
      const before = balance(sb);
      const res = await call(sb, '/_sandbox/config', { method: 'POST', auth: null, body: JSON.stringify({ credits }) });
      expect(res.status).toBe(400);
      expect((res.body as { error: { credits: string[] } }).error.credits).toHaveLength(1);
      expect(balance(sb)).toBe(before);
      const seen = (await call(sb, '/public/v1/accounts/credits/')).body as { credits_available: unknown };
      expect(seen.credits_available).toBe(before / 1000);
    },
  );

  it('1e9 credits (the maximum) is kept exactly, in thousandths', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const res = await call(sb, '/_sandbox/config', {
        method: 'POST',
        auth: null,
        body: JSON.stringify({ credits: 999_999_999.999 }),
      });
      expect(res.status).toBe(200);
      expect(sb.state.ledger.balanceMilli).toBe(999_999_999_999);
      expect((await call(sb, '/public/v1/accounts/credits/')).body).toMatchObject({
        credits_available: 999_999_999.999,
      });
    } finally {
      await sb.close();
    }
  });

  it.each([[{ rateLimit: 1e308 }], [{ trialUsed: 1e308 }], [{ dailyDiscoveryLimit: 1e308 }], [{ fairUseCap: 1e308 }]])(
    'config %j is a 400',
    async (patch) => {
      const res = await call(box.get(), '/_sandbox/config', {
        method: 'POST',
        auth: null,
        body: JSON.stringify(patch),
      });
      expect(res.status).toBe(400);
    },
  );

  it.each([
    [{ days: 1e9 }],
    [{ days: 367 }],
    [{ hours: 1e10 }],
    [{ seconds: 1e308 }],
    [{ days: 300, hours: 2000 }],
    [{ days: -1 }],
    [{ days: '1' }],
  ])('listening advance %j is a 400 and the listening clock does not move', async (body) => {
    const sb = box.get();
    const before = ((await call(sb, '/_sandbox/listening', { auth: null })).body as { offset_ms: number }).offset_ms;
    const res = await call(sb, '/_sandbox/listening/advance', {
      method: 'POST',
      auth: null,
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/366 days/);
    expect(((await call(sb, '/_sandbox/listening', { auth: null })).body as { offset_ms: number }).offset_ms).toBe(
      before,
    );
  });

  it.each([
    [{ advanceSeconds: 1e308 }],
    [{ rowsPerSecond: 1e308 }],
    [{ downloadTtlSeconds: 1e12 }],
    [{ dropDownloads: 1.5 }],
    [{ queueSeconds: -1 }],
  ])('batch control %j is a 400', async (body) => {
    const res = await call(box.get(), '/_sandbox/batch', { method: 'POST', auth: null, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(batchWorld(box.get().state).offsetMs).toBe(0);
  });

  it('oauth accessTokenTtl above a year is a 400', async () => {
    const res = await call(box.get(), '/_sandbox/oauth', {
      method: 'POST',
      auth: null,
      body: JSON.stringify({ accessTokenTtl: 1e308 }),
    });
    expect(res.status).toBe(400);
  });

  it('creators sandbox --credits 1e308 is a usage error (exit 2)', async () => {
    const res = await runCli(['sandbox', '--credits', '1e308']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Invalid --credits '1e308': expected a number from 0 to 1000000000/);
  });
});
