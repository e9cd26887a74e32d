/**
 * ARCHITECTURE.md is the map: every path it names exists, and every folder under src/ is on it. Each
 * checker is a pure function over the document's text and a set of repository paths, so each test below
 * also plants a stale path or an unmapped folder and sees it reported.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Repository paths (files and folders, relative to the root, `/`-separated) of the folders the map speaks of. */
function tree(dirs: readonly string[]): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string): void => {
    out.add(relative(root, dir).split('\\').join('/'));
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else out.add(relative(root, join(dir, e.name)).split('\\').join('/'));
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out;
}

/**
 * Where a bare name in each section is looked for, before src/ and the root: a newcomer reading `core.ts`
 * in "The store" looks in lib/store, `routes/` in "The sandbox" in src/sandbox.
 */
const SECTION_BASES: Record<string, readonly string[]> = {
  Layers: ['src/app', 'src/app/factory', 'src/app/mcp', 'src/commands', 'src/contract'],
  'Layers inside lib': ['src/lib'],
  'lib, folder by folder': ['src/lib', 'src/lib/*'],
  // The rules speak across lib: a bare name there may be in any of its folders.
  Rules: ['src/lib', 'src/lib/store', 'src/lib/*', 'src/contract', 'src/app', 'src/app/factory'],
  'How a request travels': ['src/lib', 'src/lib/http'],
  'The store': ['src/lib', 'src/lib/store'],
  'The sandbox': ['src/sandbox'],
  'Tests, build and CI': ['test'],
};

interface Named {
  section: string;
  token: string;
}

/** The code spans of the document that name a path (not a glob, a template, a URL path or a build output). */
function namedPaths(doc: string): Named[] {
  const out: Named[] = [];
  const parts = doc.replace(/^```[\s\S]*?^```/gm, '').split(/^## /m);
  for (const [i, part] of parts.entries()) {
    const section = i === 0 ? '' : part.slice(0, part.indexOf('\n')).trim();
    for (const m of part.matchAll(/`([^`]+)`/g)) {
      const token = m[1] as string;
      if (/[\s<>*|()]/.test(token) || token.startsWith('/') || token.startsWith('dist')) continue;
      if (token.includes('/') || /\.(ts|js|mjs)$/.test(token)) out.push({ section, token });
    }
  }
  return out;
}

/** The repository path a named path stands for in its section, or undefined when none exists. */
function resolveNamed(n: Named, paths: ReadonlySet<string>): string | undefined {
  const bases = (SECTION_BASES[n.section] ?? []).flatMap((b) =>
    b.endsWith('/*') ? [...paths].filter((p) => dirname(p) === b.slice(0, -2) && !/\.\w+$/.test(p)) : [b],
  );
  const name = n.token.replace(/\/$/, '');
  for (const base of [...bases, 'src', '']) {
    for (const candidate of [name, `${name}.ts`]) {
      const p = base === '' ? candidate : `${base}/${candidate}`;
      if (paths.has(p)) return p;
    }
  }
  return undefined;
}

/** Paths the document names that do not exist, as `section: token`. */
function stalePaths(doc: string, paths: ReadonlySet<string>): string[] {
  return namedPaths(doc)
    .filter((n) => resolveNamed(n, paths) === undefined)
    .map((n) => `${n.section || '(top)'}: ${n.token}`);
}

/**
 * Folders under src/ the document never names as a folder. Below src/commands the folders are the command
 * line itself (`creators listening campaigns`), which the document describes as a rule, not one by one.
 */
function unmappedFolders(doc: string, paths: ReadonlySet<string>): string[] {
  const named = new Set(
    namedPaths(doc)
      .filter((n) => n.token.endsWith('/') || !/\.\w+$/.test(n.token))
      .map((n) => resolveNamed(n, paths)),
  );
  return [...paths]
    .filter((p) => (p === 'src' || p.startsWith('src/')) && !/\.\w+$/.test(p) && !p.startsWith('src/commands/'))
    .filter((p) => !named.has(p))
    .sort();
}

const doc = (): string => readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
let repoPaths: Set<string> | undefined;
const paths = (): Set<string> => {
  repoPaths ??= tree(['src', 'test', 'scripts', 'bin', '.ci']);
  return repoPaths;
};

describe('ARCHITECTURE.md is the map', () => {
  it('names only paths that exist', () => {
    expect(stalePaths(doc(), paths())).toEqual([]);
  });

  it('fails on a path that is gone (planted)', () => {
    // A file that never was, a folder that never was, and `heap.ts`, which is in lib/io: not where "The store" looks.
    const planted = doc().replace('## The store\n', '## The store\n\n`heap.ts` and `lib/io/gone.ts`, `sieve/`.\n');
    expect(stalePaths(planted, paths())).toEqual([
      'The store: heap.ts',
      'The store: lib/io/gone.ts',
      'The store: sieve/',
    ]);
  });

  it('names every folder under src/', () => {
    expect(unmappedFolders(doc(), paths())).toEqual([]);
  });

  it('fails on a folder it does not name (planted)', () => {
    const planted = new Set([...paths(), 'src/lib/sieve', 'src/lib/sieve/index.ts', 'src/app/extra']);
    const before = unmappedFolders(doc(), paths());
    expect(unmappedFolders(doc(), planted)).toEqual([...before, 'src/app/extra', 'src/lib/sieve'].sort());
  });

  it('looks for a bare name where its section says (planted)', () => {
    // `core.ts` exists in lib/store, not in src/sandbox: named in "The sandbox" it is stale.
    expect(stalePaths('## The sandbox\n\n`core.ts`, `routes/`\n', paths())).toEqual(['The sandbox: core.ts']);
    expect(stalePaths('## The store\n\n`core.ts`\n', paths())).toEqual([]);
  });
});
