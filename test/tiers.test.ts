/**
 * The fast tier stays what test/tiers.ts says: no fast file imports node:child_process (itself or through a
 * test helper), names the built CLI (dist/, bin/creators.js), tmux or the PostgreSQL helper; every slow
 * entry still names a file; and the fast tier's set-up makes starting a process throw.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isSlow, SLOW_GLOBS, SLOW_INCLUDE } from './tiers.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** This file: it starts a process on purpose, to see the guard refuse it. */
const SELF = 'test/tiers.test.ts';

const SLOW_SIGNS: [RegExp, string][] = [
  [/['"](?:node:)?child_process['"]/, 'imports node:child_process'],
  [/\bbin\/creators\.js\b|['"`/]dist\//, 'needs the built CLI (bin/creators.js, dist/)'],
  [/\btmux\b/, 'drives tmux'],
  [/helpers\/pg\.js/, 'needs PostgreSQL (test/helpers/pg.js)'],
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

/** Why `file` (repository-relative) is slow, through the test helpers it imports; [] when it is not. */
export function slowSigns(file: string, read: (path: string) => string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  let source: string;
  try {
    source = read(file);
  } catch {
    // A path that names no file: an import written inside a string (an architecture test's planted example).
    return [];
  }
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = SLOW_SIGNS.filter(([sign]) => sign.test(text)).map(([, why]) => `${file} ${why}`);
  for (const m of text.matchAll(/(?:from\s+|import\(\s*)'(\.{1,2}\/[^']+)'/g)) {
    const target = relative(root, resolve(root, dirname(file), (m[1] as string).replace(/\.js$/, '.ts')));
    if (target.startsWith('test/')) found.push(...slowSigns(target, read, seen));
  }
  return found;
}

const readRepo = (path: string): string => readFileSync(join(root, path), 'utf8');
const files = testFiles(join(root, 'test')).map((f) => relative(root, f));

describe('test tiers', () => {
  it('no fast-tier file spawns a process, needs the build, tmux or PostgreSQL', () => {
    const found = files.filter((f) => !isSlow(f) && f !== SELF).flatMap((f) => slowSigns(f, readRepo));
    expect(found, 'list these in SLOW_TESTS (test/tiers.ts), with the reason').toEqual([]);
  });

  it('the slow project runs test files only, not the helpers beside them', () => {
    expect(SLOW_INCLUDE.filter((g) => !g.endsWith('.test.ts'))).toEqual([]);
  });

  it('every slow entry names at least one test file', () => {
    const stale = SLOW_GLOBS.filter(
      (g) => !files.some((f) => (g.endsWith('/**') ? f.startsWith(g.slice(0, -2)) : f === g)),
    );
    expect(stale, 'remove these from SLOW_TESTS (test/tiers.ts)').toEqual([]);
  });

  it('the check sees a process started through a helper, a build path and PostgreSQL', () => {
    const planted: Record<string, string> = {
      'test/lib/a.test.ts': "import { run } from '../helpers/runner.js';\n// dist/ in a comment is not a sign\n",
      'test/helpers/runner.ts': "import { spawn } from 'node:child_process';\n",
      'test/lib/b.test.ts':
        "const bin = new URL('../../dist/main.js', import.meta.url);\nimport { PG_URL } from '../helpers/pg.js';\n",
    };
    const read = (p: string): string => planted[p] ?? '';
    expect(slowSigns('test/lib/a.test.ts', read)).toEqual(['test/helpers/runner.ts imports node:child_process']);
    expect(slowSigns('test/lib/b.test.ts', read)).toEqual([
      'test/lib/b.test.ts needs the built CLI (bin/creators.js, dist/)',
      'test/lib/b.test.ts needs PostgreSQL (test/helpers/pg.js)',
    ]);
    expect(isSlow('test/e2e/new.test.ts')).toBe(true);
    expect(isSlow('test/lib/new.test.ts')).toBe(false);
  });

  it.runIf(!isSlow(SELF))('in the fast tier, starting a process throws, naming where the file belongs', () => {
    const childProcess = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
    expect(() => childProcess.spawnSync(process.execPath, ['-e', ''])).toThrow(
      /fast tier starts no process; list the file in SLOW_TESTS \(test\/tiers\.ts\)/,
    );
  });
});
