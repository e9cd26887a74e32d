import type { Command } from 'commander';
import type { Lazy } from '../../program.js';
import { examples } from '../help-text.js';

/** Account and access: credits, auth. */
export function registerAccount(program: Command, lazy: Lazy): void {
  program
    .command('credits')
    .description('Show the credit balance (GET /public/v1/accounts/credits/, free)')
    .addHelpText('after', examples([
      ['creators credits', 'balance as a table on a terminal'],
      ['creators credits --json', 'machine-readable'],
      ["creators credits --json | jq '.credits_available'", 'just the number'],
    ]))
    .action(lazy(() => import('./credits.js')));

  const auth = program.command('auth').description('Inspect or print the credential in effect')
    .addHelpText('after', examples([
      ['creators auth status', 'which credential is used, and is it valid'],
      ['creators auth token', 'print the bearer credential for other tools'],
    ]));
  auth
    .command('status')
    .description('Show base URL, profile, which credential is used and where it came from, and check it live')
    .addHelpText('after', examples([
      ['creators auth status', 'human summary'],
      ['creators auth status --json', 'for scripts; exit 4 when not authenticated'],
    ]))
    .action(lazy(() => import('./auth-status.js')));
  auth
    .command('token')
    .description('Print the access token or API key in effect (refreshing a login first if needed)')
    .addHelpText('after', examples([
      ['creators auth token', 'the bearer credential, for other tools'],
      ['curl -H "Authorization: Bearer $(creators auth token)" "$CREATORS_BASE_URL/public/v1/accounts/credits/"', 'use it with curl'],
    ]))
    .action(lazy(() => import('./auth-token.js')));
}
