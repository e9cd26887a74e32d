/**
 * Every `$ creators ...` line of the README and every `--help` example runs as printed against a
 * default-seed sandbox: each block (a README code block, or one command's examples) top to bottom against a
 * fresh sandbox, in its own working directory and config directory, on a pretend terminal 100 columns wide;
 * and the whole README once more, top to bottom in one sandbox and one directory, as a reader follows it, with no
 * prompt answered (a prompt the README does not show stops the reader), comparing shown output with what the
 * lines before changed (balances, running counts) masked; a block marked `# on a new store` counts by exit code.
 * A step fails on an exit code other than 0 (or the `# exit N` its comment declares) and, where the README
 * shows output, on different output (addresses, keys, times masked; `...` in the README stands for more).
 * Plain `creators` lines run in-process; lines that need a shell (pipes, `$(...)`, `printf > file`, curl)
 * run in bash with `creators` as the built CLI, stdin and stderr on a terminal as a reader's are. README
 * `creators login` lines run the built CLI with a browser that approves on the sandbox's consent page, so the
 * ids and credentials later lines meet are a reader's; `export`/`unset` lines set the run's environment.
 * Commands added later are covered without touching this file; a line that cannot run unattended is listed in
 * NOT_RUN (or NEEDS_LOGIN) with its reason.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMAND_TREE } from '../../src/commands/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import {
  helpBlocks,
  isLogin,
  mask,
  maskHistory,
  needsLogin,
  notRunReason,
  readmeBlocks,
  shellWords,
  shownMatches,
  type Block,
  type Step,
} from '../helpers/examples.js';
import { runCli } from '../helpers/run-cli.js';
import { BIN } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const COLUMNS = 100;

interface Outcome {
  code: number;
  /** stdout and stderr as a terminal shows them. */
  output: string;
  stdout: string;
}

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/**
 * The state a command's help examples take for granted (its own examples name ids and files, not the steps
 * that made them): base-url set in the profile, keys 2 and 3, exclusion lists 1-3, subscriptions 1-3, campaigns 1-2, a day of listening
 * events, a creator and a Discovery page in the store, and the input files the examples read. README blocks get none of it: they make what they use.
 */
const HELP_WORLD_FILES: Record<string, string> = {
  'handles.csv': 'handle\nnoah_paws\ntheellastrong\n',
  'creators.csv': 'name,handle\nNoah,noah_paws\nElla,theellastrong\n',
  'emails.csv': 'email\ncarladiy.collabs@example.com\n',
  'leads.csv': 'name,work_email\nCarla,carladiy.collabs@example.com\n',
  'people.csv': 'name,Work email\nCarla,carladiy.collabs@example.com\n',
  'filters.json': '{"number_of_followers":{"min":10000}}\n',
  'seen.txt': 'nike\nadidas\n',
  'contacted.csv': 'handle,name\nnike,Nike\n',
  'handles.txt': 'carlosrobinson\nesa\n',
  'h.txt': 'carlosrobinson\nesa\n',
  'more.txt': 'noah_paws\n',
  'gone.txt': 'samuelkhan\n',
  'sub.json':
    '{"name":"from a file","platform":"instagram","creators":[{"platform":"instagram","handle":"carlosrobinson"}]}\n',
  'body.json': '{"platform":"instagram","filters":{},"paging":{"limit":5,"page":0}}\n',
};
const HELP_WORLD_STEPS: readonly string[] = [
  'creators config set base-url $CREATORS_BASE_URL',
  'creators keys create --name second',
  'creators keys create --name third',
  ...['one', 'two', 'three'].map((n) => `creators exclusions create ${n} --platform instagram`),
  ...['one', 'two', 'three'].map(
    (n) => `creators listening subscriptions create --name ${n} --platform instagram carlosrobinson samuelkhan`,
  ),
  ...['one', 'two'].map(
    (n) =>
      `creators listening campaigns create --name ${n} --days 30 --platform instagram carlosrobinson samuelkhan --max-credits 100`,
  ),
  // Something bought, for the examples of `store` and `spend`.
  'creators enrich handle noah_paws --platform instagram --mode raw',
  'creators search --platform instagram --limit 5',
];

/** Runs one block top to bottom; returns what went wrong, one message per failed step. */
async function runBlock(block: Block, inOrder = false): Promise<{ failures: string[]; notRun: string[]; ran: Step[] }> {
  // One clock for the sandbox and the in-process CLI: a CLI sleep (polling, retry waits) moves sandbox time.
  const clock = { t: Date.parse('2026-11-22T10:00:00Z') };
  const now = (): number => clock.t;
  const sandbox = await startSandbox({ port: 0, now });
  open.push(sandbox);
  const cwd = tempDir('creators-example-');
  const home = tempDir('creators-home-');
  const configDir = tempDir('creators-cfg-');
  const vars: Record<string, string | undefined> = {
    HOME: home,
    NO_COLOR: '1',
    // What a reader on a current Node sees: not Node 20's one-line notice (test/e2e/node-version.test.ts).
    CREATORS_NO_NODE_NOTICE: '1',
    CREATORS_BASE_URL: sandbox.url,
    CREATORS_API_KEY: sandbox.apiKey,
    // `printf %s "$KEY" | creators config set api-key -`: the key the reader has.
    KEY: sandbox.apiKey,
  };
  const failures: string[] = [];
  const notRun: string[] = [];
  const ran: Step[] = [];
  const place: Place = {
    cwd,
    configDir,
    now,
    advance: (ms) => (clock.t += ms),
    answer: !inOrder,
    initial: { ...vars },
    loggedIn: false,
  };
  if (!block.where.startsWith('README')) {
    for (const [name, content] of Object.entries(HELP_WORLD_FILES)) writeFileSync(join(cwd, name), content);
    mkdirSync(join(home, '.config', 'fish', 'completions'), { recursive: true });
    for (const command of HELP_WORLD_STEPS) {
      const made = await runStep({ where: 'help world', command, comment: '', exit: 0 }, vars, place);
      if (made.code !== 0) throw new Error(`help world: ${command} exited ${made.code}\n${made.output}`);
    }
    const advanced = await fetch(`${sandbox.url}/_sandbox/listening/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"days": 1}',
    });
    if (!advanced.ok) throw new Error(`help world: advancing listening time gave ${advanced.status}`);
  }
  for (const step of block.steps) {
    // A line that needs a login runs once a login line before it has run (the reader's path), not on its own.
    const reason =
      !block.where.startsWith('README') && isLogin(step)
        ? 'interactive: a help example logs in to the address it names (README logins run with a browser that approves)'
        : place.loggedIn && needsLogin(step)
          ? undefined
          : notRunReason(step);
    if (reason) {
      notRun.push(`${step.where} ${step.command}: ${reason}`);
      continue;
    }
    ran.push(step);
    const outcome = await runStep(step, vars, place);
    const problem = judge(step, outcome, sandbox.url, inOrder);
    if (problem)
      failures.push(`${step.where}\n  $ ${step.command}\n  ${problem}\n${indent(mask(outcome.output, sandbox.url))}`);
  }
  return { failures, notRun, ran };
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .slice(0, 30)
    .map((l) => `    | ${l}`)
    .join('\n');
}

/**
 * A step fails on a prompt the README does not show, a wrong exit code, or output other than the README's. In
 * order, what an earlier block changed (balances, spend lines, store hits) is masked on both sides first.
 */
function judge(step: Step, outcome: Outcome, baseUrl: string, inOrder: boolean): string | undefined {
  const prompt = /^.*\[y\/N\].*$/m.exec(outcome.output)?.[0];
  if (prompt !== undefined && step.where.startsWith('README') && !(step.shown ?? '').includes(prompt.trim()))
    return `stops at a prompt the README does not show: ${prompt.trim()}`;
  if (outcome.code !== step.exit) return `exit ${outcome.code}, expected ${step.exit}`;
  if (inOrder) {
    const shown = step.shown;
    if (shown === undefined || shown.trim() === '' || step.newStore) return undefined;
    const [s, printed, out] = [shown, outcome.output, outcome.stdout].map(maskHistory);
    if (!shownMatches(s, printed, baseUrl) && !shownMatches(s, out, baseUrl))
      return `output differs from the README's (in order):\n${indent(s)}\n  printed:`;
    return undefined;
  }
  // A help example shows the command at work: one that finds nothing in the sandbox teaches nothing.
  if (
    step.where.endsWith('--help') &&
    !/not found|nothing/i.test(step.comment) &&
    /No data found|\b0 enriched\b/.test(outcome.output)
  ) {
    return 'finds nothing in the sandbox (use a creator it has)';
  }
  // The README may leave out the notices a terminal shows on stderr (the spend line), so stdout alone may match.
  const shown = step.shown;
  if (
    shown !== undefined &&
    shown.trim() !== '' &&
    !shownMatches(shown, outcome.output, baseUrl) &&
    !shownMatches(shown, outcome.stdout, baseUrl)
  ) {
    return `output differs from the README's:\n${indent(shown)}\n  printed:`;
  }
  return undefined;
}

interface Place {
  /** Whether a prompt is answered yes (a block on its own) or left unanswered (the README in order). */
  answer: boolean;
  /** The environment the run started with: an `export` line of the README puts its names back to these. */
  initial: Record<string, string | undefined>;
  /** Whether a `creators login` line has run (lines marked "after `creators login`" then run too). */
  loggedIn: boolean;
  cwd: string;
  configDir: string;
  now: () => number;
  advance: (ms: number) => void;
}

/** A free loopback port, for a login line that names a fixed one (8765 may be taken on a shared machine). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The reader's browser: opens the address the login printed, presses Approve on the consent page (or follows
 * the sandbox's auto-approval), and is sent back to the login's listener.
 */
async function approveInBrowser(url: string): Promise<void> {
  let answer = await fetch(url, { redirect: 'manual' });
  if (answer.status === 200) {
    const requestId = /name="request_id" value="([^"]+)"/.exec(await answer.text())?.[1];
    if (!requestId) throw new Error(`login: no consent form at ${url}`);
    answer = await fetch(new URL('/public/v1/oauth/authorize/', url), {
      method: 'POST',
      body: new URLSearchParams({ request_id: requestId, decision: 'approve' }),
      redirect: 'manual',
    });
  }
  const back = answer.headers.get('location');
  if (!back) throw new Error(`login: the consent step gave ${answer.status} and no redirect`);
  await (await fetch(back)).text();
}

/** `creators login ...` as a reader runs it: the built CLI in a process, with a browser that approves. */
async function runLogin(words: string[], vars: Record<string, string | undefined>, where: Place): Promise<Outcome> {
  const args = words.slice(1);
  const port = args.indexOf('--port');
  if (port >= 0) args[port + 1] = String(await freePort());
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    CREATORS_CONFIG_DIR: where.configDir,
    COLUMNS: String(COLUMNS),
  };
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) env[k] = v;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: where.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let approving: Promise<void> | undefined;
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    const url = /http:\/\/\S+\/oauth\/authorize\/\S+/.exec(stderr)?.[0];
    if (url && !approving) approving = approveInBrowser(url);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve(status ?? 1));
  });
  clearTimeout(timer);
  child.stdin.destroy();
  await approving;
  if (code === 0) where.loggedIn = true;
  return { code, output: `${stdout}${stderr}`, stdout };
}

async function runStep(step: Step, vars: Record<string, string | undefined>, where: Place): Promise<Outcome> {
  // `export NAME=...` puts back the value the sandbox gave (the README shows placeholders); `unset` drops it.
  const setting = /^(export|unset)\s+(.*)$/.exec(step.command);
  if (setting) {
    for (const name of (setting[2] ?? '').split(/\s+/).map((w) => w.split('=')[0] ?? ''))
      vars[name] = setting[1] === 'export' ? where.initial[name] : undefined;
    return { code: 0, output: '', stdout: '' };
  }
  const words = shellWords(step.command, vars);
  if (words && isLogin(step)) return runLogin(words, vars, where);
  if (words && words[0] === 'creators') {
    const res = await runCli(words.slice(1), {
      env: { ...vars },
      tty: true,
      // A prompt ("Delete ...?") is answered yes, as a reader at the terminal would, except in the in-order run.
      stdin: where.answer ? 'y\n' : '',
      stdinTTY: true,
      columns: COLUMNS,
      cwd: where.cwd,
      configDir: where.configDir,
      now: where.now,
      onSleep: where.advance,
    });
    // A line erased in place (a progress line: `\r` + erase line) is not on the screen afterwards.
    return { code: res.code, output: res.combined.replace(/[^\n]*\r\x1b\[2K/g, ''), stdout: res.stdout };
  }
  // A line for a real shell. `NAME=$(...)` keeps NAME for the next lines.
  const assigned = /^(\w+)=/.exec(step.command)?.[1];
  const script = [
    `creators() { "${process.execPath}" "${BIN}" "$@"; }`,
    step.command,
    ...(assigned ? [`__status=$?; printf '\\n%s' "$${assigned}"; exit $__status`] : []),
  ].join('\n');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    CREATORS_CONFIG_DIR: where.configDir,
    COLUMNS: String(COLUMNS),
  };
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) env[k] = v;
  // A README reader types the line at a terminal: stdin and stderr are one (a pty from `script`, given no
  // input, so a prompt the README does not show is answered by end-of-input and seen), stdout is captured.
  const scratch = tempDir('creators-line-');
  const [scriptFile, outFile] = [join(scratch, 'line.sh'), join(scratch, 'stdout')];
  writeFileSync(scriptFile, script);
  // util-linux `script` (Linux); elsewhere the line runs with no terminal and a prompt in a pipe goes unseen.
  const [file, args] =
    step.where.startsWith('README') && process.platform === 'linux'
      ? ['script', ['-qec', `bash ${scriptFile} > ${outFile}`, '/dev/null']]
      : ['bash', [scriptFile]];
  // Not spawnSync: the sandbox answers from this process's event loop.
  const ran = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(file, args, { cwd: where.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
  // Under `script`, its own output is the terminal's (stderr, with the terminal's \r\n) and stdout is the file.
  const res =
    file === 'script'
      ? {
          status: ran.status,
          stdout: existsSync(outFile) ? readFileSync(outFile, 'utf8') : '',
          stderr: `${ran.stdout.replace(/\r\n/g, '\n').replace(/[^\n]*\r\x1b\[2K/g, '')}${ran.stderr}`,
        }
      : ran;
  let output = `${res.stdout}${res.stderr}`;
  if (assigned) {
    const cut = res.stdout.lastIndexOf('\n');
    vars[assigned] = res.stdout.slice(cut + 1);
    output = `${res.stdout.slice(0, cut)}${res.stderr}`;
  }
  return { code: res.status ?? 1, output, stdout: res.stdout };
}

const readme = readmeBlocks(README);
const help = helpBlocks(COMMAND_TREE);

describe('README and --help examples run as printed against a default-seed sandbox', () => {
  it('finds the examples (the parser has not silently lost them)', () => {
    expect(existsSync(BIN) && existsSync(join(BIN, '..', '..', 'dist', 'main.js'))).toBe(true);
    expect(readme.length).toBeGreaterThan(15);
    expect(help.length).toBeGreaterThan(20);
    expect(readme.flatMap((b) => b.steps).filter((s) => s.shown).length).toBeGreaterThan(8);
  });

  // One reader, one sandbox, the README top to bottom: a block may use what an earlier one made, and must not
  // make it twice or use what an earlier one deleted.
  it(`README.md top to bottom: ${readme.reduce((n, b) => n + b.steps.length, 0)} line(s) in ${readme.length} blocks, in order`, async () => {
    const steps = readme.flatMap((b) => b.steps);
    const { failures, ran } = await runBlock({ where: 'README.md', steps }, true);
    expect(failures.length, `\n${failures.join('\n\n')}\n`).toBe(0);
    // The reader's path: the logins ran, so did every line that needs one, and shown output was compared.
    expect(ran.filter(isLogin).length).toBeGreaterThan(0);
    expect(steps.filter(needsLogin).filter((s) => !ran.includes(s))).toEqual([]);
    expect(ran.filter((s) => s.shown && !s.newStore).length).toBeGreaterThan(20);
  }, 600_000);

  for (const block of [...readme, ...help]) {
    it(`${block.where}: ${block.steps.length} line(s)`, async () => {
      const { failures } = await runBlock(block);
      expect(failures.length, `\n${failures.join('\n\n')}\n`).toBe(0);
    }, 120_000);
  }
});
