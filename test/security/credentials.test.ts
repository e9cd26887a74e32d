/**
 * A server that echoes a credential back must not get it printed: the API key, an unknown bearer token,
 * the refresh token of a stored login, the authorization code and PKCE verifier of a login are redacted
 * from errors (text and JSON), notices and the --debug log; no file the run writes holds one.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';
import { expectNoCredential, expectNoRawControls, KEY, on, useHostileServer } from './hostile.js';

const server = useHostileServer();
const env = (): Record<string, string> => ({ CREATORS_BASE_URL: server.get().url, CREATORS_API_KEY: KEY });

/** Every file under `dir`, read as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => readFileSync(join(d.parentPath, d.name), 'utf8'));
}

describe('echoed credentials', () => {
  it('a 401 quoting the Authorization header: the key is redacted in text, JSON and --debug, and in no file', async () => {
    const other = 'tok_unknown_4242424242abcdef';
    server.get().routes(
      on('GET', 'accounts/credits/', {
        status: 401,
        body: {
          detail: `Invalid token. Received header 'Authorization: Bearer ${KEY}'; also saw Bearer ${other} and api_key=${KEY}.`,
        },
      }),
    );
    const cwd = tempDir('creators-sec-');
    for (const extra of [[], ['--json'], ['--debug'], ['--debug', '--json']]) {
      const res = await runCli(['credits', '-o', 'credits.json', ...extra], { env: env(), cwd });
      expect(res.code).toBe(4);
      expect(res.stderr).toMatch(/Authentication failed \(HTTP 401\)/);
      expect(res.stderr).toContain('Bearer REDACTED');
      expectNoCredential(res.stderr + res.stdout, `credits ${extra.join(' ')}`, [KEY, other]);
      if (extra.includes('--json')) {
        const message = res.errorJson().error.message;
        expect(message).toContain("'Authorization: Bearer REDACTED'");
        expect(message).toContain('api_key=REDACTED');
      }
    }
    expect(server.get().authorizations).toContain(`Bearer ${KEY}`);
    for (const text of filesUnder(cwd)) expectNoCredential(text, 'a file in the working directory', [KEY, other]);
  });

  it("a refresh rejected with the refresh token quoted: the stored login's tokens are not printed", async () => {
    const access = 'at_expired_0123456789abcdef';
    const refresh = 'rt_secret_9876543210fedcba';
    const configDir = tempConfigDir();
    const login = {
      access_token: access,
      refresh_token: refresh,
      expires_at: 1,
      base_url: `${server.get().url}/`,
      client_id: 'cli_1',
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: { oauth: login } } }), {
      mode: 0o600,
    });
    server.get().routes(
      on('POST', 'oauth/token', (_req, body) => ({
        status: 400,
        body: { detail: `refresh ${refresh} revoked (${body}); last access token ${access}` },
      })),
      on('GET', 'accounts/credits/', { status: 401, body: { detail: `token ${access} expired` } }),
    );
    for (const extra of [[], ['--json'], ['--debug']]) {
      const res = await runCli(['credits', ...extra], { env: { CREATORS_BASE_URL: server.get().url }, configDir });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('REDACTED');
      expectNoCredential(res.stderr + res.stdout, `credits ${extra.join(' ')}`, [access, refresh]);
    }
  });

  it('a login whose code exchange is rejected with the form quoted: code and verifier are not printed', async () => {
    const code = 'authcode_0123456789abcdefXYZ';
    const sent: URLSearchParams[] = [];
    server.get().routes(
      on('POST', 'oauth/register', { status: 201, body: { client_id: 'cli_hostile' } }),
      on('POST', 'oauth/token', (_req, body) => {
        sent.push(new URLSearchParams(body));
        return {
          status: 400,
          body: { detail: `cannot use ${body} (verifier ${new URLSearchParams(body).get('code_verifier') ?? ''})` },
        };
      }),
    );
    const opener = async (url: string): Promise<void> => {
      const authorize = new URL(url);
      const redirect = new URL(authorize.searchParams.get('redirect_uri') as string);
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('state', authorize.searchParams.get('state') as string);
      // The listener holds the page open until the exchange is over; nothing waits for it here.
      void fetch(redirect).then(
        (r) => r.text(),
        () => '',
      );
    };
    for (const extra of [[], ['--json'], ['--debug']]) {
      const res = await runCli(['login', ...extra], {
        env: { CREATORS_BASE_URL: server.get().url },
        configDir: tempConfigDir(),
        openBrowser: opener,
      });
      expect(res.code).toBe(4);
      const verifier = sent.at(-1)?.get('code_verifier') as string;
      expect(verifier.length).toBeGreaterThanOrEqual(43);
      expect(sent.at(-1)?.get('code')).toBe(code);
      expect(res.stderr).toContain('REDACTED');
      expectNoCredential(res.stderr + res.stdout, `login ${extra.join(' ')}`, [code, verifier]);
      expectNoRawControls(res.stderr, `login ${extra.join(' ')}`);
    }
  });
});
