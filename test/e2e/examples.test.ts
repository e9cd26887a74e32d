/**
 * Every `$ creators ...` line of the README and every `--help` example runs as printed against a
 * default-seed sandbox: each block (a README code block, or one command's examples) top to bottom against a
 * fresh sandbox, in its own working directory and config directory, on a pretend terminal 100 columns wide.
 * A step fails on an exit code other than 0 (or the `# exit N` its comment declares) and, where the README
 * shows output, on different output (addresses, keys, times masked; `...` in the README stands for more).
 * Plain `creators` lines run in-process; lines that need a shell (pipes, `$(...)`, `printf > file`, curl)
 * run in bash with `creators` as the built CLI. Commands added later are covered without touching this file;
 * a line that cannot run unattended is listed in NOT_RUN with its reason.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMAND_TREE } from '../../src/commands/index.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { helpBlocks, mask, notRunReason, readmeBlocks, shellWords, shownMatches, type Block, type Step } from '../helpers/examples.js';
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

/** Runs one block top to bottom; returns what went wrong, one message per failed step. */
async function runBlock(block: Block): Promise<{ failures: string[]; notRun: string[]; todoPassed: string[] }> {
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
    CREATORS_BASE_URL: sandbox.url,
    CREATORS_API_KEY: sandbox.apiKey,
    // `printf %s "$KEY" | creators config set api-key -`: the key the reader has.
    KEY: sandbox.apiKey,
  };
  const failures: string[] = [];
  const notRun: string[] = [];
  const todoPassed: string[] = [];
  for (const step of block.steps) {
    const reason = notRunReason(step);
    if (reason) {
      notRun.push(`${step.where} ${step.command}: ${reason}`);
      continue;
    }
    const outcome = await runStep(step, vars, { cwd, configDir, now, advance: (ms) => (clock.t += ms) });
    const problem = judge(step, outcome, sandbox.url);
    const todo = HELP_TODO.has(`${step.where} :: ${step.command}`);
    if (todo && !problem) todoPassed.push(`${step.where} :: ${step.command}`);
    if (problem && !todo) failures.push(`${step.where}\n  $ ${step.command}\n  ${problem}\n${indent(mask(outcome.output, sandbox.url))}`);
  }
  return { failures, notRun, todoPassed };
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .slice(0, 30)
    .map((l) => `    | ${l}`)
    .join('\n');
}

function judge(step: Step, outcome: Outcome, baseUrl: string): string | undefined {
  if (outcome.code !== step.exit) return `exit ${outcome.code}, expected ${step.exit}`;
  // The README may leave out the notices a terminal shows on stderr (the spend line), so stdout alone may match.
  const shown = step.shown;
  if (shown !== undefined && shown.trim() !== '' && !shownMatches(shown, outcome.output, baseUrl) && !shownMatches(shown, outcome.stdout, baseUrl)) {
    return `output differs from the README's:\n${indent(shown)}\n  printed:`;
  }
  return undefined;
}

interface Place {
  cwd: string;
  configDir: string;
  now: () => number;
  advance: (ms: number) => void;
}

async function runStep(step: Step, vars: Record<string, string | undefined>, where: Place): Promise<Outcome> {
  const words = shellWords(step.command, vars);
  if (words && words[0] === 'creators') {
    const res = await runCli(words.slice(1), {
      env: { ...vars },
      tty: true,
      stdinTTY: false,
      columns: COLUMNS,
      cwd: where.cwd,
      configDir: where.configDir,
      now: where.now,
      onSleep: where.advance,
    });
    return { code: res.code, output: res.combined, stdout: res.stdout };
  }
  // A line for a real shell. `NAME=$(...)` keeps NAME for the next lines.
  const assigned = /^(\w+)=/.exec(step.command)?.[1];
  const script = [
    `creators() { "${process.execPath}" "${BIN}" "$@"; }`,
    step.command,
    ...(assigned ? [`__status=$?; printf '\\n%s' "$${assigned}"; exit $__status`] : []),
  ].join('\n');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', CREATORS_CONFIG_DIR: where.configDir, COLUMNS: String(COLUMNS) };
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) env[k] = v;
  // Not spawnSync: the sandbox answers from this process's event loop.
  const res = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: where.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  let output = `${res.stdout}${res.stderr}`;
  if (assigned) {
    const cut = res.stdout.lastIndexOf('\n');
    vars[assigned] = res.stdout.slice(cut + 1);
    output = `${res.stdout.slice(0, cut)}${res.stderr}`;
  }
  return { code: res.status ?? 1, output, stdout: res.stdout };
}

/**
 * Help examples that do not run as printed yet (ids and files no fresh sandbox has), as `where :: command`.
 * The list only shrinks: a listed example that now passes fails the test until it is taken off, and an
 * example not listed (a new command's included) must pass.
 */
const HELP_TODO: ReadonlySet<string> = new Set(
  (JSON.parse(readFileSync(fileURLToPath(new URL('./help-examples-todo.json', import.meta.url)), 'utf8')) as string[]),
);

const readme = readmeBlocks(README);
const help = helpBlocks(COMMAND_TREE);

describe('README and --help examples run as printed against a default-seed sandbox', () => {
  it('finds the examples (the parser has not silently lost them)', () => {
    expect(existsSync(BIN) && existsSync(join(BIN, '..', '..', 'dist', 'main.js'))).toBe(true);
    expect(readme.length).toBeGreaterThan(15);
    expect(help.length).toBeGreaterThan(20);
    expect(readme.flatMap((b) => b.steps).filter((s) => s.shown).length).toBeGreaterThan(8);
  });

  for (const block of [...readme, ...help]) {
    it(`${block.where}: ${block.steps.length} line(s)`, async () => {
      const { failures, todoPassed } = await runBlock(block);
      expect(failures.length, `\n${failures.join('\n\n')}\n`).toBe(0);
      expect(todoPassed, 'these now run as printed: take them off test/e2e/help-examples-todo.json').toEqual([]);
    }, 120_000);
  }
});
