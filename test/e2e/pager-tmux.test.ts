/**
 * The pager in a real terminal: the built CLI in a tmux pane of 12 rows runs `dict languages` (longer
 * than the pane) through the default pager, less -FRX. The screen shows the top of the table and
 * less's prompt, and `q` ends the command with exit 0 and nothing else on the screen. A short output
 * (`credits`) is printed as if there were no pager (less -F quits at once).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

function missing(tool: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
}

const absent = ['tmux', 'less'].filter(missing);
const skipReason =
  absent.length > 0 ? ` (skipped: ${absent.join(' and ')} not installed; apt-get install ${absent.join(' ')})` : '';

const sb = useSandbox({ seed: 5 });
const sockets: string[] = [];

afterEach(() => {
  for (const socket of sockets.splice(0)) {
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }
});

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Starts `args` of the built CLI in a detached tmux pane; the exit status lands in the returned file. */
function startInPane(args: string[], rows: number): { socket: string; statusFile: string } {
  const dir = tempDir('creators-tmux-');
  const socket = `creators-pager-${process.pid}-${sockets.length}-${Math.random().toString(36).slice(2, 8)}`;
  sockets.push(socket);
  const statusFile = join(dir, 'status');
  const env = {
    ...sandboxEnv(sb.get()),
    CREATORS_CONFIG_DIR: join(dir, 'config'),
    HOME: dir,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'xterm',
    LANG: 'C.UTF-8',
    // The screen holds what this test reads: not Node 20's notice (test/e2e/node-version.test.ts).
    CREATORS_NO_NODE_NOTICE: '1',
  };
  const assignments = Object.entries(env)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(' ');
  // env -i: no PAGER, LESS or CREATORS_PAGER of the machine running the tests.
  const command = `env -i ${assignments} ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}; echo $? > ${quote(statusFile)}; sleep 600`;
  execFileSync(
    'tmux',
    ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', String(rows), command],
    { env: { ...process.env, TERM: 'xterm' } },
  );
  return { socket, statusFile };
}

function screen(socket: string): string {
  return execFileSync('tmux', ['-L', socket, 'capture-pane', '-p'], { encoding: 'utf8' });
}

/** Polls until `check` holds (no timing assumption beyond a generous deadline for a loaded machine). */
async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(absent.length > 0)(`the pager in tmux${skipReason}`, () => {
  it("a long list pages through less -FRX: the top of the table and less's prompt; q gives exit 0", async () => {
    const { socket, statusFile } = startInPane(['dict', 'languages'], 12);
    const shown = await until('less prompt', () => {
      const text = screen(socket);
      return /^:\s*$/m.test(text.trimEnd().split('\n').pop() ?? '') ? text : undefined;
    });
    const lines = shown.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^┌/);
    expect(lines).toHaveLength(12);
    expect(shown).not.toMatch(/└/); // the end of the table is below the screen
    expect(existsSync(statusFile)).toBe(false); // the command waits for the pager

    execFileSync('tmux', ['-L', socket, 'send-keys', 'q']);
    const status = await until('exit status', () =>
      existsSync(statusFile) ? readFileSync(statusFile, 'utf8').trim() : undefined,
    );
    expect(status).toBe('0');
    const after = screen(socket);
    expect(after).not.toMatch(/error|warning|Error/);
  }, 60_000);

  it('a short output is printed as is: less -F quits at once, exit 0', async () => {
    const { socket, statusFile } = startInPane(['credits'], 12);
    const status = await until('exit status', () =>
      existsSync(statusFile) ? readFileSync(statusFile, 'utf8').trim() : undefined,
    );
    expect(status).toBe('0');
    const text = screen(socket);
    expect(text).toMatch(/Credits available/);
    expect(text).not.toMatch(/^:\s*$/m);
  }, 60_000);
});
