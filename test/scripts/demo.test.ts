// `npm run demo` is one of the README's two first commands: it shows every command it runs (set-up included, so
// nothing is spent before the first one shown), says when it shortens a command's output, and shows what a command
// that writes a file wrote. Run without the latency guess: this checks what it shows, not how long it takes.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const demo = fileURLToPath(new URL('../../scripts/demo.js', import.meta.url));

function runDemo(): Promise<{ code: number | null; out: string }> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: tempDir('creators-demo-home-'),
    CREATORS_DEMO_LATENCY: 'none',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [demo], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The demo's output as blocks: each shown command line and what followed it. */
function blocks(out: string): Array<{ command: string; body: string }> {
  return out
    .split(/^\$ /m)
    .slice(1)
    .map((part) => {
      const [command = '', ...rest] = part.split('\n');
      return { command, body: rest.join('\n') };
    });
}

describe('npm run demo', () => {
  it('shows every command it pays for, every cut and every file it writes', async () => {
    const { code, out } = await runDemo();
    expect(code, out).toBe(0);
    const shown = blocks(out);
    // Nothing bought before the first command shown: its balance is untouched.
    expect(shown[0]?.command).toBe('creators credits');
    expect(shown[0]?.body).toMatch(/"credits_used": 0\b/);
    // The 40 handles of the bulk step come from a command the reader sees, and the file it wrote is shown.
    const setup = shown.find((b) => b.command.includes('-o handles.csv'));
    expect(setup?.body).toMatch(/\(file\) handles\.csv: 40 rows/);
    const bulk = shown.find((b) => b.command.includes('--input handles.csv -o enriched.csv'));
    expect(bulk?.body).toMatch(/\(file\) enriched\.csv: 40 rows/);
    // A cut says so: 500 lines of search --all are not presented as 16.
    const all = shown.find((b) => b.command.includes('--max-results 500'));
    expect(all?.body).toMatch(/\.\.\. 484 more lines of stdout, 500 in all/);
    // Everything the account spent is in the spend log the demo shows.
    expect(out).toMatch(/all of them in this spend log/);
  }, 120_000);
});
