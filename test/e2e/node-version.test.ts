import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { mountTinyDisk, tinyDiskUnavailable } from '../helpers/full-disk.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { BIN, type SpawnResult } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The Nodes the launcher meets (README, Install): below 20.18.1 one line saying what is needed and exit 1,
 * never a SyntaxError from dist/; Node 20 works with a one-line notice on a terminal; Node 22.1+ keeps a
 * compile cache that a folder it cannot write never breaks. Another Node is played by a preload that
 * changes process.version (and, for the notice, stderr's isTTY) before the launcher runs; `.ci/run` also
 * runs the launcher on real Node 18 and 16 (scripts/node-versions.mjs).
 */
const sb = useSandbox({ seed: 3 });

function preload(lines: string[]): string {
  const file = join(tempDir('creators-node-'), 'preload.mjs');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function asNode(version: string, { tty = false } = {}): string {
  return preload([
    `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });`,
    `Object.defineProperty(process, 'version', { value: ${JSON.stringify(`v${version}`)} });`,
    ...(tty ? ["Object.defineProperty(process.stderr, 'isTTY', { value: true });"] : []),
  ]);
}

function launch(
  args: string[],
  { env = {}, importFile }: { env?: Record<string, string>; importFile?: string } = {},
): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(importFile ? ['--import', importFile] : []), BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('the launcher on each Node', () => {
  it('below 20.18.1: one line naming the Node needed and the one running, exit 1, nothing on stdout', async () => {
    for (const version of ['18.20.4', '20.18.0', '16.20.2']) {
      for (const args of [['--version'], ['credits', '--json'], ['--help']]) {
        const res = await launch(args, { importFile: asNode(version), env: sandboxEnv(sb.get()) });
        expect(res.code, `${version} ${args.join(' ')}`).toBe(1);
        expect(res.stdout).toBe('');
        expect(res.stderr).toBe(
          `creators needs Node.js 20.18.1 or later (22, 24 or 26 recommended); this is Node.js v${version}. Install a current release from https://nodejs.org.\n`,
        );
      }
    }
  });

  it('bin/creators.js uses no syntax newer than Node 13.2 has (so an old Node reads it and gets that line)', async () => {
    const source = readFileSync(BIN, 'utf8');
    const as = async (target: string) =>
      (await transform(source, { loader: 'js', format: 'esm', target, minifyWhitespace: true })).code;
    // esbuild rewrites what the target lacks (`?.`, `??`...) and refuses what it cannot (top-level await).
    expect(await as('node13.2')).toBe(await as('esnext'));
  });

  it('Node 20: a one-line notice on a terminal, none with --quiet or CREATORS_NO_NODE_NOTICE=1, or when stderr is not a terminal', async () => {
    const env = sandboxEnv(sb.get());
    const notice =
      'Node.js 20 reached its end of life on 2026-04-30; creators supports it until 2027-04-30: upgrade to Node.js 22 or later.\n';
    const onTty = await launch(['credits', '--json'], { importFile: asNode('20.19.0', { tty: true }), env });
    expect(onTty.code).toBe(0);
    expect(onTty.stderr).toBe(notice);
    expect(typeof JSON.parse(onTty.stdout).credits_available).toBe('number');
    const quiet = await launch(['credits', '--json', '--quiet'], { importFile: asNode('20.19.0', { tty: true }), env });
    expect([quiet.code, quiet.stderr]).toEqual([0, '']);
    const silenced = await launch(['credits', '--json'], {
      importFile: asNode('20.19.0', { tty: true }),
      env: { ...env, CREATORS_NO_NODE_NOTICE: '1' },
    });
    expect([silenced.code, silenced.stderr]).toEqual([0, '']);
    const piped = await launch(['credits', '--json'], { importFile: asNode('20.19.0'), env });
    expect([piped.code, piped.stderr]).toEqual([0, '']);
    const later = await launch(['credits', '--json'], { importFile: asNode('26.1.0', { tty: true }), env });
    expect([later.code, later.stderr]).toEqual([0, '']);
  });

  const hasCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  describe.skipIf(!hasCache)(
    `the compile cache (Node 22.1+)${hasCache ? '' : `: skipped on Node ${process.version}, which has none`}`,
    () => {
      it('is kept in the temp folder Node picks', async () => {
        const tmp = tempDir('creators-cc-');
        const res = await launch(['credits', '--json'], { env: sandboxEnv(sb.get(), { TMPDIR: tmp }) });
        expect([res.code, res.stderr]).toEqual([0, '']);
        expect(readdirSync(join(tmp, 'node-compile-cache')).length).toBeGreaterThan(0);
      });

      it('a temp folder and home that cannot be written (not a folder, or a full disk) change nothing', async () => {
        const notAFolder = join(tempDir('creators-cc-'), 'file');
        writeFileSync(notAFolder, '');
        const places = [join(notAFolder, 'sub')];
        const disk = tinyDiskUnavailable() === undefined ? mountTinyDisk(16) : undefined;
        try {
          if (disk) {
            writeFileSync(join(disk.dir, 'fill'), Buffer.alloc(64 * 1024)); // may stop short: the disk is full either way
          }
        } catch {}
        if (disk) places.push(disk.dir);
        try {
          for (const place of places) {
            const res = await launch(['credits', '--json'], {
              env: sandboxEnv(sb.get(), {
                TMPDIR: place,
                HOME: place,
                CREATORS_CONFIG_DIR: join(tempDir('creators-cfg-'), 'c'),
              }),
            });
            expect([res.code, res.stderr], place).toEqual([0, '']);
            expect(typeof JSON.parse(res.stdout).credits_available).toBe('number');
          }
        } finally {
          disk?.unmount();
        }
        expect(existsSync(notAFolder)).toBe(true);
      });
    },
  );
});
