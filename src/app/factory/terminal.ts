import { cursorAllowed, unicodeAllowed } from '../../lib/io/charset.js';
import { Terminal } from '../../lib/io/terminal.js';
import type { Deps } from '../deps.js';
import type { GlobalOptions } from '../global-options.js';

/** The run's terminal object (streams, TTY-ness, colour, notices, spinner, prompts), from the injected streams and the globals. */
export function buildTerminal(deps: Deps, globals: GlobalOptions): Terminal {
  const env = deps.env;
  return new Terminal(deps.io, {
    quiet: Boolean(globals.quiet),
    color: colourAllowed(globals, env),
    debug: Boolean(globals.debug) || env.CREATORS_DEBUG === '1' || env.CREATORS_DEBUG === 'true',
    yes: Boolean(globals.yes),
    cwd: deps.cwd,
    secrets: deps.secrets,
    waitSpinnerDelayMs: deps.waitSpinnerDelayMs,
    unicode: unicodeAllowed(env, deps.platform ?? process.platform),
    cursor: cursorAllowed(env),
  });
}

/** `--no-color`, NO_COLOR and TERM=dumb turn colour off, on the terminal and in the output alike. */
export function colourAllowed(g: GlobalOptions, env: Record<string, string | undefined>): boolean {
  return g.color !== false && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}
