import { Option, type Command } from 'commander';
import type { Lazy } from '../../program.js';
import { examples } from '../../app/help-text.js';

/** Account access: login, logout, keys, apps (`auth status|token` live in the account group). */
export function registerAccess(program: Command, lazy: Lazy): void {
  program
    .command('login')
    .description('Log in with OAuth 2.0 (authorization code + PKCE) and store the tokens in the profile')
    .option('--no-browser', 'print the URL and read the pasted redirect URL (or code) instead of opening a browser')
    .option('--port <n>', 'port of the local 127.0.0.1 listener (default: random)')
    .addOption(new Option('--login-timeout <s>', 'give up after this many seconds (default 300)'))
    .addHelpText('after', examples([
      ['creators login', 'opens the browser; approve, and the CLI is logged in'],
      ['creators login --no-browser', 'over SSH: open the printed URL elsewhere, paste the final address back'],
      ['creators --profile work login --base-url http://127.0.0.1:8787', 'log a profile in to the sandbox'],
    ]) + '\nOver SSH or without a display the browser is not opened; the URL is printed and a pasted redirect is accepted.\n')
    .action(lazy(() => import('./login.js')));

  program
    .command('logout')
    .description("Forget the profile's stored login (tokens) and stored API key")
    .addHelpText('after', examples([
      ['creators logout', 'forget the default profile\u2019s credentials'],
      ['creators --profile work logout', 'another profile'],
    ]))
    .action(lazy(() => import('./logout.js')));

  const keys = program.command('keys').description('Manage API keys (/public/v1/accounts/tokens/)')
    .addHelpText('after', examples([
      ['creators keys list', 'every key, values masked'],
      ['creators keys create --name ci --show-token', 'a new key, printed once in full'],
      ['creators keys delete 3 --yes', 'delete a key in a script'],
    ]));
  const showToken = (): Option => new Option('--show-token', 'print key values in full (masked otherwise)');
  keys
    .command('list')
    .alias('ls')
    .description('List API keys, inactive ones included')
    .addOption(showToken())
    .addHelpText('after', examples([
      ['creators keys list', 'table with masked values'],
      ['creators keys list --json --show-token', 'for scripts, values in full'],
    ]))
    .action(lazy(() => import('./keys-list.js')));
  keys
    .command('create')
    .description('Create a long-lived API key')
    .option('--name <name>', 'label of the key')
    .option('--expires-at <iso>', 'expiry as an ISO 8601 date or time (default: never)')
    .addOption(showToken())
    .addHelpText('after', examples([
      ['creators keys create --name ci --show-token', 'new key, value printed once in full'],
      ['creators keys create --name temp --expires-at 2027-01-31', 'expires at midnight UTC'],
    ]))
    .action(lazy(() => import('./keys-create.js')));
  keys
    .command('update')
    .description('Rename, activate/deactivate or change the expiry of an API key')
    .argument('<id>', 'key id')
    .option('--name <name>', 'new label')
    .option('--active', 'activate the key')
    .option('--inactive', 'deactivate the key')
    .option('--expires-at <iso|none>', "new expiry (ISO 8601), or 'none' to remove it")
    .addOption(showToken())
    .addHelpText('after', examples([
      ['creators keys update 3 --inactive', 'turn a key off without deleting it'],
      ['creators keys update 3 --name deploy --expires-at none', 'rename, never expire'],
    ]))
    .action(lazy(() => import('./keys-update.js')));
  keys
    .command('delete')
    .alias('rm')
    .description('Delete an API key permanently (asks first unless --yes)')
    .argument('<id>', 'key id')
    .addHelpText('after', examples([
      ['creators keys delete 3', 'asks for confirmation'],
      ['creators keys delete 3 --yes', 'in scripts'],
    ]))
    .action(lazy(() => import('./keys-delete.js')));

  const apps = program.command('apps').description('Connected OAuth apps (/public/v1/oauth/apps/)')
    .addHelpText('after', examples([
      ['creators apps list', 'the apps authorized to act for the account'],
      ['creators apps revoke 2 --yes', "revoke one app's access"],
    ]));
  apps
    .command('list')
    .alias('ls')
    .description('List the apps authorized to act for the account')
    .addHelpText('after', examples([
      ['creators apps list', 'table'],
      ['creators apps list --json', 'for scripts'],
    ]))
    .action(lazy(() => import('./apps-list.js')));
  apps
    .command('revoke')
    .description("Revoke an app's access (asks first unless --yes)")
    .argument('<id>', 'app id')
    .addHelpText('after', examples([
      ['creators apps revoke 2', 'asks for confirmation'],
      ['creators apps revoke 2 --yes', 'in scripts'],
    ]))
    .action(lazy(() => import('./apps-revoke.js')));
}
