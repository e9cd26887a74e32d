import type { Command } from 'commander';
import type { Lazy } from '../../program.js';
import { examples } from '../../app/help-text.js';

/** `creators config get|set|unset|list|path`: per-profile preferences. */
export function registerConfig(program: Command, lazy: Lazy): void {
  const config = program
    .command('config')
    .description('Read and change per-profile settings (base-url, format, platform, max-credits, api-key ...)')
    .addHelpText('after', examples([
      ['creators config set format csv', 'default output format for this profile'],
      ['creators --profile staging config set base-url http://127.0.0.1:8787', 'a second profile'],
      ['creators config list', 'all settings (secrets masked)'],
      ['creators config path', 'where the file lives'],
    ]));
  config
    .command('get')
    .description('Print one setting of the profile (secrets masked unless --show-secret)')
    .argument('<key>', 'setting name')
    .option('--show-secret', 'print a secret value in full')
    .addHelpText('after', examples([['creators config get base-url', 'the stored base URL']]))
    .action(lazy(() => import('./get.js')));
  config
    .command('set')
    .description('Store a setting in the profile (file mode 0600)')
    .argument('<key>', 'setting name')
    .argument('<value>', 'value')
    .addHelpText('after', examples([
      ['creators config set max-credits 25', 'budget guard for every command'],
      ['printf %s "$KEY" | creators config set api-key -', 'store a key without putting it in shell history'],
    ]))
    .action(lazy(() => import('./set.js')));
  config
    .command('unset')
    .description('Remove a setting from the profile')
    .argument('<key>', 'setting name')
    .addHelpText('after', examples([['creators config unset format', 'back to the default']]))
    .action(lazy(() => import('./unset.js')));
  config
    .command('list')
    .alias('ls')
    .description('List the settings of the profile (secrets masked)')
    .addHelpText('after', examples([['creators config list --json', 'as JSON']]))
    .action(lazy(() => import('./list.js')));
  config
    .command('path')
    .description('Print the path of the config file')
    .addHelpText('after', examples([['creators config path', 'e.g. ~/.config/creators/config.json']]))
    .action(lazy(() => import('./path.js')));
}
