import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { call, L, START, subscribe } from '../commands/listening/helpers.js';
import { holdProxy, type HoldProxy } from '../helpers/hold-proxy.js';
import { BIN } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * What people see in a real terminal (tmux): the one drawing rule without a locale, TERM=dumb without any
 * cursor movement (the pane's raw output is recorded with pipe-pane), store notices broken at spaces, and
 * `events tail` at 60, 100 and 200 columns. Needs tmux (Debian package `tmux`).
 */
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
if (!hasTmux) console.warn('skipping the tmux drawing tests: tmux is not installed (apt-get install tmux)');

const socket = `creators-draw-${process.pid}-${randomBytes(4).toString('hex')}`;
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
let sessions = 0;

async function until<T>(get: () => T | undefined, what: string, limitMs = 60_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const got = get();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`never saw ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Runs `command` (a shell line) in a fresh pane `columns` wide; its raw output (every byte the pane got) is
 * recorded from the start. Resolves with the pane as shown and the raw bytes once the command has ended.
 */
async function inPane(
  command: string,
  columns: number,
  during?: (raw: () => string) => Promise<void>,
): Promise<{ pane: string; raw: string }> {
  const name = `draw${++sessions}`;
  const dir = tempDir('creators-draw-');
  const go = join(dir, 'go');
  const rawFile = join(dir, 'raw');
  writeFileSync(rawFile, '');
  tmux(
    'new-session',
    '-d',
    '-s',
    name,
    '-x',
    String(columns),
    '-y',
    '50',
    `while [ ! -e '${go}' ]; do sleep 0.05; done; ${command}; echo "exit=$?"; sleep 60`,
  );
  tmux('pipe-pane', '-t', name, '-o', `cat >> '${rawFile}'`);
  writeFileSync(go, '');
  const raw = (): string => readFileSync(rawFile, 'utf8');
  if (during) await during(raw);
  const pane = await until(() => {
    const shown = tmux('capture-pane', '-p', '-J', '-t', name);
    return /^exit=\d+$/m.test(shown) ? shown : undefined;
  }, `the end of: ${command}`);
  // pipe-pane may still be writing the last bytes: wait until the exit line is in the raw record too.
  await until(() => (existsSync(rawFile) && raw().includes('exit=') ? true : undefined), 'the raw record');
  return { pane, raw: raw() };
}

const creators = (extraEnv: string, url: string, key: string, args: string): string =>
  // The screen holds what the test reads: not Node 20's notice (test/e2e/node-version.test.ts).
  `env ${extraEnv} CREATORS_NO_NODE_NOTICE=1 CREATORS_BASE_URL=${url} CREATORS_API_KEY=${key} HOME=/nonexistent-home XDG_CONFIG_HOME=/nonexistent-home '${process.execPath}' '${BIN}' ${args}`;

describe.skipIf(!hasTmux)('drawing in a real terminal (tmux)', () => {
  let sandbox: Sandbox;
  let proxy: HoldProxy;
  let clock = START;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 42, now: () => clock });
    proxy = await holdProxy(
      sandbox.url,
      (req) => req.method === 'POST' && (req.url ?? '').startsWith('/public/v1/discovery/'),
    );
    const handles = sandbox.state.creators
      .list('instagram')
      .slice(0, 5)
      .map((c) => c.profile.username);
    await subscribe(sandbox, 'draw', handles);
    clock += 86_400_000;
    expect((await call(sandbox, 'GET', `${L}/events/?page_size=1`)).body.count).toBeGreaterThan(5);
  });
  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    await proxy?.close();
    await sandbox?.close();
  });

  it('TERM=dumb with a UTF-8 locale: a held search sends no cursor movement (no spinner frames), then the table', async () => {
    const run = creators(
      'TERM=dumb LANG=C.UTF-8',
      proxy.url,
      sandbox.apiKey,
      'search --platform instagram --limit 3 --timeout 300 --no-pager',
    );
    const { pane, raw } = await inPane(run, 100, async (rawNow) => {
      await until(() => (proxy.held === 1 ? true : undefined), 'the search held');
      // Longer than the spinner's delay (300 ms): a spinner would have drawn by now.
      await new Promise((r) => setTimeout(r, 1500));
      expect(rawNow()).not.toContain('\x1b');
      proxy.release();
    });
    expect(pane).toMatch(/^exit=0$/m);
    expect(pane).toMatch(/^┌─/m);
    // Not one escape sequence from the CLI: no cursor movement, no colour.
    expect(raw.slice(0, raw.indexOf('exit='))).not.toContain('\x1b');
  });

  it.each([60, 100])('no locale at all at %i columns: the table and the chart both in ASCII', async (columns) => {
    const run = creators(
      '-u LANG -u LC_ALL -u LC_CTYPE NO_COLOR=1',
      sandbox.url,
      sandbox.apiKey,
      'overlap noah_paws theellastrong --platform instagram --no-pager',
    );
    const { pane } = await inPane(run, columns);
    expect(pane).toMatch(/^exit=0$/m);
    expect(pane).toMatch(/^\+-+\+/m);
    expect(pane).toMatch(/^Audience {2}# unique/m);
    expect(pane).not.toMatch(/[\u2500-\u259f]/);
  });

  it.each([60, 100])(
    'store notices at %i columns: broken at spaces, never inside a word; the store said once',
    async (columns) => {
      const config = tempDir('creators-draw-config-');
      const env = `LANG=C.UTF-8 NO_COLOR=1 XDG_CONFIG_HOME='${config}'`;
      const enrich = creators(
        env,
        sandbox.url,
        sandbox.apiKey,
        'enrich handle noah_paws --platform instagram --mode raw -o /dev/null',
      );
      const { pane } = await inPane(`${enrich} 2>/dev/null; clear; ${enrich}`, columns);
      expect(pane).toMatch(/^exit=0$/m);
      const lines = pane.split('\n').filter((line) => line !== '' && !line.startsWith('exit='));
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(columns);
      // Joined at the breaks with a space, the lines are the sentence: no word was split across them.
      expect(lines.join(' ')).toBe(
        'Enriched noah_paws from the store (bought within 14 days): 0 credits; --max-age 0 buys fresh.',
      );
    },
  );

  it.each([60, 100, 200])(
    'events tail at %i columns: every event says who and what happened on its first line',
    async (columns) => {
      const run = creators(
        'LANG=C.UTF-8 NO_COLOR=1 TZ=UTC',
        sandbox.url,
        sandbox.apiKey,
        'events tail --once --backlog 5',
      );
      const { pane } = await inPane(run, columns);
      expect(pane).toMatch(/^exit=0$/m);
      const firsts = pane
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('  ') && !/^exit=|^\d+ new events?\.$/.test(line));
      expect(firsts).toHaveLength(5);
      for (const line of firsts) {
        expect(line).toMatch(/(^| )[a-z_]+ {2,}instagram\/[\w.]+( |$)/);
        expect(line.length).toBeLessThanOrEqual(columns);
      }
      if (columns >= 100)
        for (const line of firsts) expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC {2}#\d+ /);
    },
  );
});
