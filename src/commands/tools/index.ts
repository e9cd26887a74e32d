import { Option, type Command } from 'commander';
import type { Lazy } from '../../program.js';
import { examples } from '../../app/help-text.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `api`, `sandbox`, `completion` and the `help` topics. */
export function registerTools(program: Command, lazy: Lazy): void {
  program
    .command('api')
    .description('Call any endpoint with the same auth, retries, debug log and output handling')
    .argument('<path>', 'API path, e.g. accounts/credits or /public/v1/discovery/')
    .addOption(new Option('-X, --method <method>', 'HTTP method (default GET, or POST with -f/--input)'))
    .option('-f, --field <key=value>', 'body field, or query parameter with -X GET; dot paths nest, values typed', collect)
    .option('--input <file>', 'request body as JSON from a file, or - for stdin')
    .option('--paginate', 'follow next links, next_token cursors and offset pages, streaming every item')
    .addHelpText('after', examples([
      ['creators api accounts/credits', 'GET a path'],
      ['creators api discovery/classifier/brands -X GET -f search=nike -f limit=5', 'query parameters on a GET'],
      ['creators api discovery/exclusion-lists -X POST -f name=competitors -f platform=instagram', 'a JSON body'],
      ['creators api social/listening/events --paginate --format jsonl', 'every page, one record per line'],
      ['creators api discovery/ --input body.json --dry-run', 'see the request without sending it'],
    ]))
    .action(lazy(() => import('./api.js')));

  program
    .command('sandbox')
    .description('Run the local sandbox API in the foreground and print its base URL and a key')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option('--seed <n>', 'seed of the synthetic creators', '42')
    .option('--rate-limit <n>', 'requests per minute before 429', '300')
    .option('--credits <n>', 'starting balance', '1000')
    .option('--trial', 'behave like a trial account (30 successful requests)')
    .option('--page-base <n>', 'first Discovery page number it accepts: 0 (default) or 1')
    .option('--faults <spec>', "inject faults: 'kind[:arg] [METHOD] [/path*] [count=n|p=0.1]; ...' (see /_sandbox/faults)")
    .addHelpText('after', examples([
      ['creators sandbox --port 8787', 'then in another shell:'],
      ['CREATORS_BASE_URL=http://127.0.0.1:8787 CREATORS_API_KEY=<key> creators credits', 'use it'],
      ['creators sandbox --rate-limit 30 --credits 5', 'practise limits and empty balances'],
      ["creators sandbox --faults '503 GET * p=0.2; drop-after POST /public/v1/discovery/ count=1'", 'a chaotic API (seeded by --seed)'],
    ]))
    .action(lazy(() => import('./sandbox.js')));

  program
    .command('completion')
    .description('Print a shell completion script for bash, zsh or fish')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText('after', examples([
      ['source <(creators completion bash)', 'bash, this shell only'],
      ['creators completion zsh > "${fpath[1]}/_creators"', 'zsh'],
      ['creators completion fish > ~/.config/fish/completions/creators.fish', 'fish'],
    ]))
    .action(lazy(() => import('./completion.js')));

  program.helpCommand(false);
  program
    .command('help')
    .description('Show help for a command, or a topic: exit-codes, environment, formatting')
    .argument('[topic...]', 'a topic or a command path')
    .addHelpText('after', examples([
      ['creators help exit-codes', 'what each exit status means'],
      ['creators help environment', 'environment variables'],
      ['creators help dict', 'help of a command'],
    ]))
    .action(lazy(() => import('./help.js')));
}
