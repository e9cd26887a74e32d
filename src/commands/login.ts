import { defineCommand, seconds, type ValueKind } from '../app/command.js';
import { ports } from '../app/ports.js';
import { UsageError } from '../lib/errors.js';

/** The local listener's port: 1-65535, digits only. */
const LISTENER_PORT: ValueKind<number> = {
  parse(raw, flag) {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1 || n > 65535)
      throw new UsageError(`Invalid ${flag} '${raw}': expected a port number from 1 to 65535.`);
    return n;
  },
};

/**
 * `creators login`: OAuth 2.0 authorization code with PKCE; tokens saved in the profile. Under
 * `--dry-run` the first request it would send (the client registration, or the code exchange) is
 * printed as the plan; no browser is opened and nothing is registered or stored.
 */
export default defineCommand({
  name: 'login',
  description: 'Log in with OAuth 2.0 (authorization code + PKCE) and store the tokens in the profile',
  flags: {
    browser: {
      flags: '--no-browser',
      description: 'print the URL and read the pasted redirect URL (or code) instead of opening a browser',
    },
    port: {
      flags: '--port <n>',
      description: 'port of the local 127.0.0.1 listener (default: a new random one each login)',
      value: LISTENER_PORT,
    },
    loginTimeout: {
      flags: '--login-timeout <s>',
      description: 'give up after this many seconds (default 300)',
      value: seconds('expected a positive number of seconds.'),
    },
  },
  examples: [
    ['creators login', 'opens the browser; approve, and the CLI is logged in'],
    ['creators login --no-browser', 'over SSH: open the printed URL elsewhere, paste the final address back'],
    ['creators --profile work login --base-url http://127.0.0.1:8787', 'log a profile in to the sandbox'],
  ],
  helpAfter:
    '\nOver SSH or without a display the browser is not opened; the URL is printed and a pasted redirect is accepted.\n',
  async run(ctx, { flags }) {
    const [{ DEFAULT_LOGIN_TIMEOUT_MS, login }, { humanDate }] = await Promise.all([
      import('../lib/auth/login.js'),
      import('../lib/output/humanize.js'),
    ]);
    const port = flags.port;
    const timeoutMs = flags.loginTimeout === undefined ? DEFAULT_LOGIN_TIMEOUT_MS : flags.loginTimeout * 1000;
    const loginPorts = await ports.login(ctx);
    const result = await login(loginPorts, { port, noBrowser: !flags.browser, timeoutMs });
    if (!result) return;
    const until =
      result.expires_at !== undefined
        ? ` The access token is valid until ${humanDate(result.expires_at)} and refreshes itself.`
        : '';
    ctx.term.notice(
      `Logged in to ${loginPorts.baseUrl.href.replace(/\/$/, '')} (profile '${ctx.profileName}').${until}`,
    );
    const overriding = ctx.globals.apiKey
      ? '--api-key'
      : ctx.globals.apiKeyFile
        ? '--api-key-file'
        : ctx.deps.env.CREATORS_API_KEY
          ? 'CREATORS_API_KEY'
          : undefined;
    if (overriding) ctx.term.warn(`${overriding} is set and takes precedence over this login.`);
  },
});
