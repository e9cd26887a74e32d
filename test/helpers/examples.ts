/**
 * The README's `$ creators ...` blocks and every command's `--help` examples, as steps a test can run against
 * a sandbox: parsing (blocks, continuation lines, shown output, `# exit N` markers), the lines that cannot run
 * unattended (each with its reason), shell-word splitting, and masking of what changes from run to run.
 */
import type { CommandNode } from '../../src/app/command.js';

export interface Step {
  /** Where it comes from: `README.md:44` or `search --help`. */
  where: string;
  /** The command line without the `$ ` prompt and without its trailing comment. */
  command: string;
  /** The trailing comment, without `#`. */
  comment: string;
  /** The exit code it must give: 0, or the `# exit N` its comment declares. */
  exit: number;
  /** The output the README shows under it, if any. */
  shown?: string;
  /**
   * The README says its output is as on a new store (`# on a new store` on the line, or alone in its block):
   * the reader following the README has bought more by then, so in order only its exit code counts.
   */
  newStore?: boolean;
}

export interface Block {
  where: string;
  steps: Step[];
}

/** Splits off a trailing `# comment` that is outside quotes and starts a word. */
export function splitComment(line: string): { command: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = undefined;
    } else if (c === '\\') i += 1;
    else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? '')))
      return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
  }
  return { command: line.trim(), comment: '' };
}

function step(where: string, line: string): Step {
  const { command, comment } = splitComment(line);
  const declared = /^exit (\d+)\b/.exec(comment);
  return {
    where,
    command,
    comment,
    exit: declared ? Number(declared[1]) : 0,
    ...(/\bon a new store\b/.test(comment) ? { newStore: true } : {}),
  };
}

/** The README's fenced blocks that hold at least one `$ creators` line, each as the steps it shows. */
export function readmeBlocks(text: string, file = 'README.md'): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let current: { where: string; steps: Step[]; shown: string[]; newStore?: boolean } | undefined;
  const closeStep = (): void => {
    const last = current?.steps.at(-1);
    // A `# ...` line between commands is a comment of the block, not output.
    const shown = current?.shown
      .filter((l) => !l.startsWith('# '))
      .join('\n')
      .trim();
    if (last && shown) last.shown = shown;
    if (current) current.shown = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line.startsWith('```')) {
      if (current) {
        closeStep();
        if (current.newStore) for (const s of current.steps) s.newStore = true;
        if (current.steps.some((s) => /^creators\b/.test(s.command) || /\bcreators\b/.test(s.command)))
          blocks.push({ where: current.where, steps: current.steps });
        current = undefined;
      } else current = { where: `${file}:${i + 1}`, steps: [], shown: [] };
      continue;
    }
    if (!current) continue;
    if (/^# on a new store\b/.test(line)) current.newStore = true;
    if (line.startsWith('$ ')) {
      closeStep();
      let full = line.slice(2);
      const at = i + 1;
      while (full.endsWith('\\') && i + 1 < lines.length) {
        i += 1;
        full = `${full.slice(0, -1)} ${(lines[i] ?? '').trim()}`;
      }
      current.steps.push(step(`${file}:${at}`, full));
    } else if (current.steps.length > 0) current.shown.push(line);
  }
  return blocks.filter((b) => b.steps.some((s) => /(^|[|(]\s*)creators\b/.test(s.command)));
}

/** Every command's help examples, one block per command or group, in tree order. */
export function helpBlocks(tree: readonly CommandNode[]): Block[] {
  const out: Block[] = [];
  const walk = (node: CommandNode, path: string[]): void => {
    const here = [...path, node.def.name];
    const where = `creators ${here.join(' ')} --help`;
    const examples = node.def.examples ?? [];
    if (examples.length > 0)
      out.push({ where, steps: examples.map(([command, what]) => step(where, `${command}  # ${what}`)) });
    if (node.kind === 'group') for (const child of node.def.commands) walk(child, here);
  };
  for (const node of tree) walk(node, []);
  return out;
}

/** Lines that cannot run unattended against a test's sandbox, each with the reason (the test lists them). */
export const NOT_RUN: ReadonlyArray<readonly [RegExp, string]> = [
  [/^creators sandbox\b/, 'starts a sandbox server (the test runs its own)'],
  [
    /^creators (--\S+ \S+ )*mcp\b(?!.*--dry-run)/,
    'serves MCP over stdio until its client closes it (test/e2e/mcp.test.ts drives it through the SDK client)',
  ],
  [/\bbch_\.\.\./, 'a placeholder for the batch id `batch upload` printed'],
  [/<\w+>/, 'a placeholder to fill in'],
  [/^creators events tail\b(?!.*--once)/, 'follows until Ctrl-C'],
  [
    /postgres:\/\/|^creators store push\b/,
    'needs a team store on PostgreSQL: test/e2e/team-store.test.ts runs these against one',
  ],
];

/** Lines that need a login made earlier: run once a `creators login` line has run, not in a block without one. */
export const NEEDS_LOGIN: ReadonlyArray<readonly [RegExp, string]> = [
  [/^creators apps revoke\b/, 'needs an app, which only `creators login` makes'],
  [/^(?!creators login).*# .*\bafter `creators login`/, 'needs a login first (its comment says so)'],
];

function commented(step: Pick<Step, 'command' | 'comment'>): string {
  return step.comment ? `${step.command}  # ${step.comment}` : step.command;
}

/** Why a step is not run (matched against the command and its comment), or undefined when it is. */
export function notRunReason(step: Pick<Step, 'command' | 'comment'>): string | undefined {
  const line = commented(step);
  return [...NOT_RUN, ...NEEDS_LOGIN].find(([re]) => re.test(line))?.[1];
}

/** Whether the step needs a login an earlier line made (and nothing else keeps it from running). */
export function needsLogin(step: Pick<Step, 'command' | 'comment'>): boolean {
  const line = commented(step);
  return NEEDS_LOGIN.some(([re]) => re.test(line)) && !NOT_RUN.some(([re]) => re.test(line));
}

/** `creators login ...` (not a dry run): the test runs it with a browser that approves. */
export function isLogin(step: Pick<Step, 'command'>): boolean {
  return /^creators (--\S+ \S+ )*login\b(?!.*--dry-run)/.test(step.command);
}

/**
 * What a line's output owes to the lines before it when the README runs top to bottom in one sandbox, made
 * fixed text on both sides: the balance (credits available, used, left; the account's line under `spend`),
 * the sandbox's running counts of listening time and events, and so the width of a box around a figure.
 */
export function maskHistory(text: string): string {
  return (
    text
      .replace(/("credits_(?:available|used|left)": ?)-?\d+(\.\d+)?/g, '$1<credits>')
      .replace(/\b\d+(\.\d+)? credits left\b/g, '<credits> credits left')
      .replace(/^The account has used .*$/gm, 'The account has used <credits>')
      .replace(/("(?:offset_ms|events)": ?)\d+/g, '$1<count>')
      .replace(/(Credits (?:available|used)\s*│\s*)-?\d+(\.\d+)?/g, '$1<credits>')
      // A box as wide as its widest figure.
      .replace(/─+/g, '─')
  );
}

/**
 * Splits a command line into words the way a POSIX shell would for the simple lines the examples use:
 * quotes, backslashes, `$NAME`/`${NAME}` from `vars`, `~/` at the start of a word. Returns undefined when the
 * line needs a real shell (pipes, redirections, `$(...)`, `&&`, `;`, assignments).
 */
export function shellWords(line: string, vars: Record<string, string | undefined>): string[] | undefined {
  if (/^\w+=/.test(line)) return undefined;
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  const add = (s: string): void => {
    word = (word ?? '') + s;
  };
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else add(c);
      continue;
    }
    if (c === '\\') {
      add(line[i + 1] ?? '');
      i += 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$(?:\{(\w+)\}|(\w+))/.exec(line.slice(i));
      if (!m) return undefined;
      add(vars[m[1] ?? m[2] ?? ''] ?? '');
      i += m[0].length - 1;
      continue;
    }
    if (c === '`') return undefined;
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else add(c);
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word = word ?? '';
      continue;
    }
    if (/[|&;<>()]/.test(c)) return undefined;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    if (c === '~' && word === undefined && line[i + 1] === '/') {
      add(vars.HOME ?? '~');
      continue;
    }
    add(c);
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * What changes from run to run, replaced by fixed text on both sides: the sandbox's address (the README
 * says 127.0.0.1:8787), keys and tokens, times and dates, durations, and the trailing space of table lines.
 */
export function mask(text: string, baseUrl?: string): string {
  let out = text;
  if (baseUrl) out = out.split(baseUrl).join('http://127.0.0.1:8787');
  return (
    out
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:8787')
      .replace(/\bsbx_(live|test|at|rt)_[A-Za-z0-9_-]+/g, 'sbx_$1_<secret>')
      .replace(/\bsbx_…[A-Za-z0-9_-]{4}(?![A-Za-z0-9_-])/g, 'sbx_…<key>')
      // A terminal time names its zone (TZ of the machine): 2026-11-22 10:00 UTC, ... EST, ... GMT+5:30.
      .replace(
        /\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d| (UTC|GMT([+-]\d{1,2}(:\d\d)?)?|[A-Z]{3,4}\b))?/g,
        '<time>',
      )
      .replace(/\bbch_[0-9a-f]{8,}\b/g, 'bch_<id>')
      .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<duration>')
  );
}

/**
 * Does the output shown in the README match what the command printed? Both are masked and their runs of
 * white space made one space and none kept around JSON punctuation (so a JSON object shown on one line
 * matches the printed one); `...` in the shown
 * text stands for anything, as the README uses it for "more of the same".
 */
export function shownMatches(shown: string, actual: string, baseUrl?: string): boolean {
  const norm = (s: string): string =>
    mask(s, baseUrl)
      .replace(/\s+/g, ' ')
      .replace(/ ?([{}[\],:]) ?/g, '$1')
      .trim();
  const pattern = norm(shown)
    .split('...')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(norm(actual));
}
