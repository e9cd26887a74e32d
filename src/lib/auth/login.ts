import { createInterface } from 'node:readline';
import type { Plan } from '../api/plan.js';
import type { ConfigStore } from '../config.js';
import { AuthError, InterruptedError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { Terminal } from '../io/terminal.js';
import { countText, plural } from '../words.js';
import { startCallbackServer, type CallbackParams } from './callback-server.js';
import {
  authorizeUrl,
  describeOAuthError,
  exchangeCode,
  exchangeCodePlan,
  registerClient,
  registerClientPlan,
} from './oauth.js';
import { challengeFor, createState, createVerifier } from './pkce.js';
import { loginFromTokens, readClient, saveClient, saveLogin, type StoredLogin } from './token-store.js';

export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

export interface LoginOptions {
  port?: number | undefined;
  noBrowser: boolean;
  timeoutMs: number;
}

export interface LoginPorts {
  store: ConfigStore;
  baseUrl: URL;
  http(): Promise<HttpClient>;
  now(): number;
  signal?: AbortSignal | undefined;
  term: Pick<Terminal, 'stdin' | 'notice' | 'tell'>;
  /** The environment, to tell whether a browser can be opened here (SSH, no display). */
  env: Record<string, string | undefined>;
  openBrowser?: ((url: string) => Promise<void>) | undefined;
  gate(plan: Plan): Promise<boolean>;
}

/** Not over SSH, and on Linux only with a display; an injected opener (tests) counts as one. */
export function canOpenBrowser(
  env: Record<string, string | undefined>,
  injected: boolean,
  platform = process.platform,
): boolean {
  if (env.SSH_CONNECTION || env.SSH_TTY) return false;
  if (injected) return true;
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd')
    return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  return true;
}

async function openWithSystem(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url);
  // Without this listener an ENOENT from spawn would be an uncaught 'error' event.
  child.on('error', () => {});
  if (child.pid === undefined) throw new Error('no browser could be started');
}

/**
 * Every failure is an AuthError (exit 4) in plain words. Under `--dry-run` the first request that changes
 * state (the registration, or the code exchange) is the plan and the flow stops: no browser, nothing stored.
 */
export async function login(ports: LoginPorts, opts: LoginOptions): Promise<StoredLogin | undefined> {
  const { store, baseUrl: base, term } = ports;
  // Built first: a bad --timeout or --retries is refused before a listener or browser is started.
  const http = await ports.http();
  const saved = readClient(store, base.href);

  // A new random port each time unless --port: a listener on a known port is a target. The service
  // matches redirect URIs exactly (api-contract §13.1), so a new port means a new registration.
  const server = await startCallbackServer(opts.port ?? 0, {
    onIgnored: (why) =>
      term.notice(`Ignored a request to the login listener with ${why} (not this login's redirect); still waiting.`),
  });
  const cleanups: Array<() => void> = [];
  try {
    let clientId = saved?.redirect_uri === server.redirectUri ? saved.client_id : undefined;
    if (!clientId) {
      if (!(await ports.gate(registerClientPlan(server.redirectUri)))) return undefined;
      const client = await registerClient(http, server.redirectUri);
      clientId = client.client_id;
      saveClient(store, base.href, {
        client_id: clientId,
        redirect_uri: server.redirectUri,
        registered_at: new Date(ports.now()).toISOString(),
      });
    }
    // The code is only known once the browser comes back; the plan shows where it will be sent.
    const exchange = exchangeCodePlan({
      clientId,
      code: '<from the browser>',
      verifier: '<generated>',
      redirectUri: server.redirectUri,
    });
    if (!(await ports.gate(exchange))) return undefined;
    const verifier = createVerifier();
    const state = createState();
    const url = authorizeUrl(base, {
      clientId,
      redirectUri: server.redirectUri,
      challenge: challengeFor(verifier),
      state,
    });
    server.expectState(state);

    const sources: Array<Promise<{ params: CallbackParams; pasted: boolean }>> = [
      server.received.then((params) => ({ params, pasted: false })),
    ];
    const askPaste = (): void => {
      term.tell(
        'After approving, the browser is sent back to this machine. If that page does not load (another machine),\n' +
          'paste the full address from its address bar here, or just the code, then press Enter:',
      );
      sources.push(readPasted(term, cleanups).then((params) => ({ params, pasted: true })));
    };
    const browser = !opts.noBrowser && canOpenBrowser(ports.env, ports.openBrowser !== undefined);
    if (browser) {
      term.tell(`Opening the browser to log in. If it does not open, visit:\n\n  ${url}\n`);
      const opener = ports.openBrowser ?? openWithSystem;
      // Not awaited: a test double (or a slow browser) may only finish once we answer its redirect.
      const opened = opener(url).then(
        () => true,
        () => false,
      );
      void opened.then((ok) => {
        if (!ok) term.notice('Could not open a browser; open the URL above yourself.');
      });
      term.notice('Waiting for the browser (Ctrl-C to cancel)...');
    } else {
      term.tell(`Open this URL in a browser to log in:\n\n  ${url}\n`);
      askPaste();
    }

    const { params, pasted } = await race(sources, ports.signal, opts.timeoutMs, cleanups);
    const fail = (message: string, code: string): AuthError => {
      server.finish(false, `${message} You can close this tab.`);
      return new AuthError(`Login failed: ${message}`, { code, hint: 'Run `creators login` again.' });
    };
    // The listener only hands over this attempt's state. A bare pasted code carries none; PKCE still
    // binds it to this attempt's verifier.
    if (pasted && params.has('state') && params.get('state') !== state) {
      throw fail(
        'the state in the redirect does not match this login attempt (a stale or forged redirect).',
        'state_mismatch',
      );
    }
    const error = params.get('error');
    if (error) {
      const description = params.get('error_description');
      throw fail(`${error}: ${describeOAuthError(error)}${description ? ` (${description})` : ''}.`, error);
    }
    const code = params.get('code');
    if (!code) throw fail('the redirect carried no authorization code.', 'missing_code');
    let tokens;
    try {
      tokens = await exchangeCode(http, { clientId, code, verifier, redirectUri: server.redirectUri });
    } catch (e) {
      server.finish(false, 'The code could not be exchanged for tokens. See the terminal.');
      throw e;
    }
    const login = loginFromTokens(tokens, ports.now(), { base_url: base.href, client_id: clientId });
    saveLogin(store, login);
    server.finish(true, 'The creators CLI is logged in. You can close this tab.');
    return login;
  } finally {
    for (const cleanup of cleanups) cleanup();
    await server.close();
  }
}

/** The timeout as it was asked for: `0.05 s` (rounding to whole seconds said `0 s`), `45 s`, `1.5 minutes`. */
export function timeoutText(ms: number): string {
  return ms >= 60_000 ? plural(Math.round(ms / 6_000) / 10, 'minute') : `${countText(ms / 1000)} s`;
}

/** Waits for the first callback, with the login timeout (a real timer: it waits for a person) and Ctrl-C. */
function race<T>(
  sources: Array<Promise<T>>,
  signal: AbortSignal | undefined,
  timeoutMs: number,
  cleanups: Array<() => void>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new AuthError(`Login timed out after ${timeoutText(timeoutMs)} without an answer from the browser.`, {
            code: 'login_timeout',
            hint: 'Run `creators login` again (with --no-browser to paste the redirect by hand).',
          }),
        ),
      timeoutMs,
    );
    const onAbort = (): void => reject(new InterruptedError('Login cancelled.'));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    cleanups.push(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
    for (const source of sources) source.then(resolve, reject);
  });
}

/** EOF means nothing will be pasted: the listener may still answer. */
function readPasted(term: Pick<Terminal, 'stdin' | 'tell'>, cleanups: Array<() => void>): Promise<CallbackParams> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: term.stdin, terminal: false });
    cleanups.push(() => rl.close());
    rl.on('line', (line) => {
      const params = parsePasted(line);
      if (params) resolve(params);
      else if (line.trim()) term.tell('That is neither the redirect address nor a code; paste it again:');
    });
  });
}

export function parsePasted(line: string): CallbackParams | undefined {
  const text = line.trim();
  if (!text) return undefined;
  if (text.includes('?') || text.includes('=')) {
    const query = text.slice(text.indexOf('?') + 1);
    const params = new URLSearchParams(query);
    return params.has('code') || params.has('error') ? params : undefined;
  }
  if (/^[A-Za-z0-9._~+/-]{8,512}$/.test(text)) return new URLSearchParams({ code: text });
  return undefined;
}
