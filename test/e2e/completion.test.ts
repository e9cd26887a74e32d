/**
 * `creators completion bash|zsh|fish` in the real shells: the script is installed the way the README says and
 * asked to complete a subcommand, option names and values (platform, mode, format, kind, dictionary kind,
 * help topic, shell, config key) and file names, with `creators` on PATH as a shim to the built CLI (dist/).
 * bash: the completion function with COMP_WORDS/COMP_CWORD set; fish: `complete -C`; zsh: an interactive
 * zsh with compinit in tmux, TAB sent and the screen read. Each shell's tests skip, saying so, without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_KINDS, DISCOVERY_PLATFORMS, HANDLE_MODES } from '../../src/contract/platforms.js';
import { KINDS } from '../../src/commands/dict.js';
import { CONFIG_KEYS } from '../../src/lib/config.js';
import { HELP_TOPICS } from '../../src/commands/help-topics.js';
import { FORMATS } from '../../src/lib/output/types.js';
import { buildProgram } from '../../src/program.js';
import { BIN } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
const skipped = (tools: string[]): string => {
  const missing = tools.filter((t) => !has(t));
  return missing.length > 0 ? ` (skipped: ${missing.join(', ')} not installed)` : '';
};

/** `creators` on PATH runs the built CLI; a folder of files to complete names from. */
const shim = tempDir('creators-shim-');
writeFileSync(join(shim, 'creators'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 });
const home = tempDir('creators-home-');
const files = tempDir('creators-files-');
for (const name of ['alpha.csv', 'beta.json']) writeFileSync(join(files, name), 'handle\nnoah_paws\n');
mkdirSync(join(files, 'data'));
const env = {
  PATH: `${shim}:${process.env.PATH ?? ''}`,
  HOME: home,
  CREATORS_CONFIG_DIR: join(home, 'config'),
  NO_COLOR: '1',
};

function run(
  cmd: string,
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: files, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const sorted = (words: Iterable<string>): string[] => [...words].sort();

/** `creators help <TAB>`: the topics and the top-level commands (`creators help listening` shows its help). */
const COMMANDS = buildProgram({ io: {} as never, env: {}, cwd: '/', now: () => 0, sleep: async () => {} }).commands.map(
  (c) => c.name(),
);
const HELP_WORDS = [...Object.keys(HELP_TOPICS), ...COMMANDS];

describe.skipIf(!has('bash'))(`bash completion${skipped(['bash'])}`, () => {
  /** The words bash would offer for `line` (split on spaces; a trailing space starts a new, empty word). */
  async function complete(line: string): Promise<string[]> {
    const words = line.split(' ');
    const script = [
      'source <(creators completion bash)',
      `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
      `COMP_CWORD=${words.length - 1}`,
      '_creators_complete',
      `printf '%s\\n' "\${COMPREPLY[@]}"`,
    ].join('\n');
    const res = await run('bash', ['-c', script]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    return res.stdout.split('\n').filter(Boolean);
  }

  it("completes subcommands, and a group's own after a global option and its value", async () => {
    expect(await complete('creators enr')).toEqual(['enrich']);
    expect(sorted(await complete('creators enrich '))).toEqual(['email', 'handle']);
    expect(sorted(await complete('creators --format json enrich '))).toEqual(['email', 'handle']);
    expect(await complete('creators keys ls --show')).toEqual(['--show-token']);
  });

  it('completes option names of the command and the global ones', async () => {
    expect(await complete('creators enrich handle --mo')).toEqual(['--mode']);
    expect(await complete('creators enrich handle --dry')).toEqual(['--dry-run']);
  });

  it('completes option values from the tree: mode, platform, format, --kind, also as --opt=value', async () => {
    expect(sorted(await complete('creators enrich handle --mode '))).toEqual(sorted(HANDLE_MODES));
    expect(await complete('creators enrich handle --mode a')).toEqual(['analytics']);
    // COMP_WORDBREAKS splits --mode=a into three words.
    expect(await complete('creators enrich handle --mode = a')).toEqual(['analytics']);
    expect(sorted(await complete('creators search --platform '))).toEqual(sorted(DISCOVERY_PLATFORMS));
    expect(sorted(await complete('creators --format '))).toEqual(sorted(FORMATS));
    expect(sorted(await complete('creators dict languages --format js'))).toEqual(['json', 'jsonl']);
    expect(sorted(await complete('creators post 123 --kind '))).toEqual(sorted(CONTENT_KINDS));
  });

  it('completes argument values: dictionary kinds, help topics, shells, config keys', async () => {
    expect(sorted(await complete('creators dict '))).toEqual(sorted(KINDS));
    expect(sorted(await complete('creators help '))).toEqual(sorted(HELP_WORDS));
    expect(COMMANDS).toContain('listening');
    expect(sorted(await complete('creators completion '))).toEqual(['bash', 'fish', 'zsh']);
    expect(sorted(await complete('creators config get '))).toEqual(sorted(Object.keys(CONFIG_KEYS)));
    // The second argument of config set is free text: its key's names are not offered again.
    expect(await complete('creators config set platform ')).not.toContain('platform');
  });

  it('completes file names for file options and arguments, and only there', async () => {
    expect(sorted(await complete('creators enrich handle --input '))).toEqual(['alpha.csv', 'beta.json', 'data']);
    expect(await complete('creators batch upload al')).toEqual(['alpha.csv']);
    expect(await complete('creators search -o b')).toEqual(['beta.json']);
    expect(await complete('creators --api-key-file al')).toEqual(['alpha.csv']);
    expect(await complete('creators enrich handle --mode ')).not.toContain('alpha.csv');
  });
});

describe.skipIf(!has('fish'))(`fish completion${skipped(['fish'])}`, () => {
  /** The candidates fish offers for `line` (`complete -C`), without their descriptions. */
  async function complete(line: string): Promise<string[]> {
    const res = await run('fish', ['--no-config', '-c', 'creators completion fish | source; complete -C "$LINE"'], {
      LINE: line,
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    return res.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0] ?? '');
  }

  it("completes subcommands where they belong, and never a group's again after its leaf", async () => {
    expect(await complete('creators enr')).toEqual(['enrich']);
    expect(sorted(await complete('creators enrich '))).toEqual(['email', 'handle']);
    for (const line of [
      'creators enrich handle ',
      'creators enrich handle noah_paws ',
      'creators --format json enrich handle x ',
    ]) {
      const offered = await complete(line);
      expect(offered, line).not.toContain('handle');
      expect(offered, line).not.toContain('email');
    }
  });

  it('completes option names and values: mode, platform, format, --kind', async () => {
    expect(await complete('creators enrich handle --mo')).toEqual(['--mode']);
    expect(sorted(await complete('creators enrich handle --mode '))).toEqual(sorted(HANDLE_MODES));
    expect(sorted(await complete('creators search --platform '))).toEqual(sorted(DISCOVERY_PLATFORMS));
    expect(sorted(await complete('creators dict languages --format '))).toEqual(sorted(FORMATS));
    expect(sorted(await complete('creators post 123 --kind '))).toEqual(sorted(CONTENT_KINDS));
    // An option waiting for its value is not offered subcommands.
    expect(await complete('creators --format ')).not.toContain('enrich');
  });

  it('completes argument values: dictionary kinds, help topics, shells, config keys', async () => {
    expect(sorted(await complete('creators dict '))).toEqual(sorted(KINDS));
    expect(sorted(await complete('creators help '))).toEqual(sorted(HELP_WORDS));
    expect(COMMANDS).toContain('listening');
    expect(sorted(await complete('creators completion '))).toEqual(['bash', 'fish', 'zsh']);
    expect(sorted(await complete('creators config unset '))).toEqual(sorted(Object.keys(CONFIG_KEYS)));
  });

  it('completes file names for file options and arguments', async () => {
    expect(sorted(await complete('creators enrich handle --input '))).toEqual(['alpha.csv', 'beta.json', 'data/']);
    expect(await complete('creators batch upload al')).toEqual(['alpha.csv']);
    expect(await complete('creators search -o b')).toEqual(['beta.json']);
    expect(await complete('creators enrich handle --mode ')).not.toContain('alpha.csv');
  });
});

// Each TAB starts an interactive zsh (compinit included): slower than the other shells on a loaded machine.
describe.skipIf(!has('zsh') || !has('tmux'))(
  `zsh completion, interactive in tmux${skipped(['zsh', 'tmux'])}`,
  { timeout: 240_000 },
  () => {
    // A server of our own (its own socket), ended when done.
    const socket = `creators-comp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const tmux = (...args: string[]) => run('tmux', ['-L', socket, ...args]);
    let sessions = 0;
    beforeAll(async () => {
      const res = await run('zsh', ['-c', `creators completion zsh > '${fpath}/_creators'`]);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      // A session that lives as long as the server: without it the server exits with each test's last
      // session, and the next test's new-session could meet it exiting ("server exited unexpectedly").
      expect((await tmux('new-session', '-d', '-s', 'keep', 'sleep 600')).stderr).toBe('');
    });
    afterAll(async () => {
      await tmux('kill-server');
    });

    // Installed as the README says: the script written as _creators into a folder of $fpath, then compinit.
    const fpath = tempDir('creators-fpath-');
    const zdot = tempDir('creators-zdot-');
    writeFileSync(
      join(zdot, '.zshrc'),
      `PS1='READY%# '\nfpath=('${fpath}' $fpath)\nautoload -U compinit && compinit -u -D\n`,
    );

    /**
     * Polls the screen until `done` holds and returns it. The bound is generous time, not a count of
     * polls (a hundred polls were ~10 s, which a loaded machine starting zsh and compinit can exceed);
     * past it, the error shows what the screen held.
     */
    async function screenUntil(session: string, what: string, done: (screen: string) => boolean): Promise<string> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const screen = (await tmux('capture-pane', '-p', '-t', session)).stdout;
        if (done(screen)) return screen;
        if (Date.now() > deadline) throw new Error(`the zsh screen never showed ${what}; it shows:\n${screen}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    /** Types `line` into a fresh interactive zsh, presses TAB, and returns the screen once `expected` all show. */
    async function tab(line: string, expected: readonly string[]): Promise<string> {
      const session = `s${sessions++}`;
      const started = await tmux(
        'new-session',
        '-d',
        '-s',
        session,
        '-x',
        '200',
        '-y',
        '50',
        '-c',
        files,
        '-e',
        `PATH=${env.PATH}`,
        '-e',
        `HOME=${home}`,
        '-e',
        `ZDOTDIR=${zdot}`,
        '-e',
        `CREATORS_CONFIG_DIR=${env.CREATORS_CONFIG_DIR}`,
        'zsh -i',
      );
      expect(started.stderr).toBe('');
      await screenUntil(session, 'the prompt', (s) => s.includes('READY'));
      await tmux('send-keys', '-t', session, '-l', line);
      await tmux('send-keys', '-t', session, 'Tab');
      const screen = await screenUntil(session, expected.join(', '), (s) => expected.every((w) => s.includes(w)));
      await tmux('kill-session', '-t', session);
      return screen;
    }

    it("completes a subcommand and lists a group's subcommands", async () => {
      // The screen drops trailing blanks: the line reads `creators enrich` with the cursor after a space.
      expect(await tab('creators enr', ['creators enrich'])).toMatch(/creators enrich$/m);
      const screen = await tab('creators enrich ', ['handle', 'email']);
      expect(screen).toMatch(/email\s+-- Enrich creators by email/);
      expect(screen).toMatch(/handle\s+-- Enrich creators by handle/);
    });

    it('completes option values: mode, platform, format, --kind', async () => {
      for (const [line, values] of [
        ['creators enrich handle --mode ', HANDLE_MODES],
        ['creators search --platform ', DISCOVERY_PLATFORMS],
        ['creators dict languages --format ', FORMATS],
        ['creators post 123 --kind ', CONTENT_KINDS],
      ] as const) {
        const screen = await tab(line, values);
        for (const v of values) expect(screen, line).toMatch(new RegExp(`(^|\\s)${v}(\\s|$)`, 'm'));
      }
      expect(await tab('creators enrich handle --mode an', ['--mode analytics'])).toContain('--mode analytics');
    });

    it('completes argument values: dictionary kinds, help topics', async () => {
      const kinds = await tab('creators dict ', KINDS);
      for (const k of KINDS) expect(kinds).toContain(k);
      const topics = await tab('creators help ', HELP_WORDS);
      for (const t of HELP_WORDS) expect(topics).toMatch(new RegExp(`(^|\\s)${t}(\\s|$)`, 'm'));
    });

    it('completes file names for file options and arguments', async () => {
      const screen = await tab('creators enrich handle --input ', ['alpha.csv', 'beta.json']);
      expect(screen).toContain('alpha.csv');
      expect(screen).toContain('beta.json');
      expect(await tab('creators batch upload al', ['upload alpha.csv'])).toContain('upload alpha.csv');
    });
  },
);
