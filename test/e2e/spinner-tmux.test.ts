import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { holdProxy, type HoldProxy } from '../helpers/hold-proxy.js';
import { screen, SPINNER_FRAMES } from '../helpers/screen.js';
import { BIN } from '../helpers/spawn-cli.js';

/**
 * The wait spinner in a real terminal: the built CLI in a tmux pane against a sandbox behind a proxy
 * that holds the search until the pane has shown the spinner and its text, then lets it through; the
 * pane is read again after (the table, and no spinner character left). Held rather than slowed: a
 * stalled machine cannot miss a fixed latency window. Needs tmux (Debian package `tmux`).
 */
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
if (!hasTmux) console.warn('skipping the tmux spinner test: tmux is not installed (apt-get install tmux)');

const socket = `creators-spin-${process.pid}-${randomBytes(4).toString('hex')}`;
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });

/** Reads the pane until `done` holds for it (the CLI's own pace: no fixed sleep is asserted on). */
async function paneUntil(done: (pane: string) => boolean, what: string, limitMs = 60_000): Promise<string> {
  const until = Date.now() + limitMs;
  let pane = '';
  while (Date.now() < until) {
    pane = tmux('capture-pane', '-p', '-t', 'spin');
    if (done(pane)) return pane;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the pane never showed ${what}; it shows:\n${pane}`);
}

describe.skipIf(!hasTmux)('the wait spinner in a real terminal (tmux)', () => {
  let sandbox: Sandbox;
  let proxy: HoldProxy;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 3 });
    proxy = await holdProxy(
      sandbox.url,
      (req) => req.method === 'POST' && (req.url ?? '').startsWith('/public/v1/discovery/'),
    );
  });
  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    await proxy?.close();
    await sandbox?.close();
  });

  it('search held until the spinner shows: "Searching…" with a spinner while it waits, then the table and no spinner left', async () => {
    const command = [
      `CREATORS_BASE_URL=${proxy.url}`,
      `CREATORS_API_KEY=${sandbox.apiKey}`,
      // The screen holds what this test reads: not Node 20's notice (test/e2e/node-version.test.ts).
      'CREATORS_NO_NODE_NOTICE=1',
      `HOME=/nonexistent-home XDG_CONFIG_HOME=/nonexistent-home NO_COLOR=1 LANG=C.UTF-8`,
      `'${process.execPath}' '${BIN}' search --platform instagram --limit 3 --timeout 300 --no-pager; echo "exit=$?"; sleep 60`,
    ].join(' ');
    tmux('new-session', '-d', '-s', 'spin', '-x', '100', '-y', '30', `env ${command}`);
    const spinning = new RegExp(`${SPINNER_FRAMES.source} Searching…`);
    const waiting = await paneUntil((p) => spinning.test(p), 'the spinner');
    expect(waiting).toMatch(spinning);
    expect(proxy.held).toBe(1);
    proxy.release();
    const after = await paneUntil((p) => p.includes('exit='), 'the end of the command');
    const lines = screen(after);
    expect(lines.find((l) => l.startsWith('exit='))).toBe('exit=0');
    expect(lines[0]).toMatch(/^┌─/);
    expect(lines.filter((l) => /^│ \w/.test(l))).toHaveLength(4);
    expect(after).not.toContain('Searching');
    expect(after).not.toMatch(SPINNER_FRAMES);
  });
});
