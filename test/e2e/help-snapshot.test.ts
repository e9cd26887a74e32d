import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';
import type { Command } from 'commander';
import { spawnCli } from '../helpers/spawn-cli.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * The help snapshot (dist/help/, written by `npm run build`) that bin/creators.js prints for
 * `--help` without loading commander must say exactly what commander says, at every width it covers,
 * for every command of the tree.
 */
const DIR = fileURLToPath(new URL('../../dist/help/', import.meta.url));

/** Every command path of the tree (without commander's implicit `help`), root first. */
function commandPaths(): string[][] {
  const out: string[][] = [];
  const walk = (cmd: Command, path: string[]): void => {
    out.push(path);
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(buildProgram({ io: {} as never, env: {}, cwd: '/', now: () => 0, sleep: async () => {} }), []);
  return out;
}

/** Help as commander renders it for the injected terminal (never the real process's stdout). */
async function commanderHelp(path: string[], columns?: number): Promise<string> {
  const res = await runCli([...path, '--help'], columns === undefined ? {} : { stdoutTTY: true, columns });
  expect(res.code).toBe(0);
  return res.stdout;
}

describe('help snapshot', () => {
  it('has one file per command of the tree, and nothing else', () => {
    const expected = commandPaths()
      .map((p) => `${p.length === 0 ? '_' : p.join('.')}.json`)
      .sort();
    expect(readdirSync(DIR).sort()).toEqual(expected);
  });

  it('matches commander at 80 columns (piped) and, unwrapped, from its wideFrom width on', async () => {
    for (const path of commandPaths()) {
      const snap = JSON.parse(readFileSync(`${DIR}${path.length === 0 ? '_' : path.join('.')}.json`, 'utf8')) as {
        pipe: string;
        wide?: string;
        wideFrom?: number;
      };
      expect(snap.pipe, `creators ${path.join(' ')} --help`).toBe(await commanderHelp(path));
      if (snap.wide !== undefined) {
        expect(snap.wide).toBe(await commanderHelp(path, snap.wideFrom));
        expect(snap.wide).toBe(await commanderHelp(path, (snap.wideFrom ?? 0) + 57));
      }
    }
  });

  it('is what the built bin prints, and --version is the package version', async () => {
    expect(existsSync(DIR)).toBe(true);
    const search = JSON.parse(readFileSync(`${DIR}search.json`, 'utf8')) as { pipe: string };
    const res = await spawnCli(['search', '--help']);
    expect(res).toMatchObject({ code: 0, stderr: '', stdout: search.pipe });
    const version = await spawnCli(['--version']);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    // Words the snapshot does not know (an alias here) still get commander's answer.
    const alias = await spawnCli(['listening', 'subs', '--help']);
    expect(alias.code).toBe(0);
    expect(alias.stdout).toContain('Usage: creators listening subscriptions');
  });
});
