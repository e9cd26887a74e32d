import type { SessionPorts } from '../../lib/auth/session.js';
import { UsageError } from '../../lib/errors.js';
import type { HttpClient } from '../../lib/http/client.js';
import type { Terminal } from '../../lib/io/terminal.js';
import { cleanApiKey } from '../api-key-source.js';
import type { Deps } from '../deps.js';
import type { GlobalOptions } from '../global-options.js';
import type { ProfileConfig } from './config.js';

export type CredentialSource = 'flag' | 'file' | 'env' | 'profile' | 'login';

export interface ResolvedCredential {
  value: string;
  source: CredentialSource;
  kind: 'api-key' | 'oauth';
  /** Access-token expiry (ms since epoch) for OAuth credentials. */
  expiresAt?: number | undefined;
}

export interface CredentialParts {
  deps: Deps;
  globals: Pick<GlobalOptions, 'apiKey' | 'apiKeyFile'>;
  term: Terminal;
  config: ProfileConfig;
  /** The run's client, asked for only by a refresh of the stored login. */
  http(): Promise<HttpClient>;
}

/**
 * The bearer credential of the run (`ctx.credential()`): `--api-key` > `--api-key-file` > env > stored
 * login/key, and the one refresh a 401 allows. Whatever is found joins the run's secrets.
 */
export class Credentials {
  private apiKeyFromFile: Promise<string> | undefined;

  constructor(private readonly parts: CredentialParts) {}

  /**
   * The credential in effect and where it came from. A key with a line break or a non-ASCII character
   * is a usage error naming its source. No message printed after this shows it.
   */
  async current(): Promise<ResolvedCredential | undefined> {
    const found = await this.find();
    this.parts.term.secrets.add(found?.value);
    return found;
  }

  private async find(): Promise<ResolvedCredential | undefined> {
    const { deps, globals, term, config } = this.parts;
    if (globals.apiKey !== undefined) {
      const key = cleanApiKey(globals.apiKey, 'flag');
      if (key) return { value: key, source: 'flag', kind: 'api-key' };
    }
    if (globals.apiKeyFile !== undefined) {
      // Read once: standard input can only be read once, and a file need not be read per request.
      const path = globals.apiKeyFile;
      this.apiKeyFromFile ??= import('../api-key-source.js').then(async ({ readApiKeyFile }) => {
        const key = await readApiKeyFile({ cwd: deps.cwd, stdin: term.stdin, stdinIsTTY: term.stdinIsTTY }, path);
        if (!key)
          throw new UsageError(`--api-key-file ${path === '-' ? '- (standard input)' : `'${path}'`} is empty.`, {
            hint: 'Put the API key in it, alone on one line.',
          });
        return key;
      });
      return { value: await this.apiKeyFromFile, source: 'file', kind: 'api-key' };
    }
    const envKey = deps.env.CREATORS_API_KEY;
    if (envKey !== undefined) {
      const key = cleanApiKey(envKey, 'env');
      if (key) return { value: key, source: 'env', kind: 'api-key' };
    }
    if (!config.hasFile()) return undefined;
    const store = await config.store();
    const oauth = store.get('oauth') as
      | { access_token?: string; refresh_token?: string; expires_at?: number }
      | undefined;
    // Held from here on, whether or not they still work: a failed refresh may be answered with them quoted.
    term.secrets.add(oauth?.access_token);
    term.secrets.add(oauth?.refresh_token);
    if (oauth?.access_token) {
      // Refreshed through the token store when about to expire; skipped when bound to another base URL.
      const { freshLogin } = await import('../../lib/auth/session.js');
      const login = await freshLogin(await this.sessionPorts());
      if (login) return { value: login.access_token, source: 'login', kind: 'oauth', expiresAt: login.expires_at };
    }
    const stored = store.get('api-key');
    if (typeof stored === 'string') {
      const key = cleanApiKey(stored, 'config');
      if (key) return { value: key, source: 'profile', kind: 'api-key' };
    }
    return undefined;
  }

  /**
   * After a 401: one forced refresh, only when the rejected credential is the stored login's access
   * token (an API key from a flag, env or the profile is never swapped for something else).
   */
  async afterUnauthorized(rejected: string): Promise<string | undefined> {
    const current = await this.current();
    if (current?.source !== 'login') return undefined;
    if (current.value !== rejected) return current.value;
    const { freshLogin } = await import('../../lib/auth/session.js');
    const login = await freshLogin(await this.sessionPorts(), { rejected });
    return login && login.access_token !== rejected ? login.access_token : undefined;
  }

  /** The ports the stored login is read and refreshed with (lib/auth/session.ts); the client is built only by a refresh. */
  private async sessionPorts(): Promise<SessionPorts> {
    const { deps, config } = this.parts;
    return {
      store: await config.store(),
      baseUrl: await config.baseUrl(),
      http: () => this.parts.http(),
      now: deps.now,
      sleep: deps.sleep,
      signal: deps.signal,
    };
  }
}
