// What the published package holds: the build's runtime imports are exactly package.json's `dependencies`
// (bundled code is not downloaded twice, and nothing the output loads is missing), no source maps, a
// LICENSE, and the licence of every bundled package (scripts/package-contents.mjs, run by the build).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<
    string,
    { imports: { path: string; kind: string; external?: boolean }[]; inputs: Record<string, { bytesInOutput: number }> }
  >;
}
interface PackageContents {
  OPTIONAL_EXTERNALS: Record<string, string>;
  runtimePackages(metafile: Metafile): Map<string, string>;
  dependencyProblems(metafile: Metafile, pkg: { dependencies?: Record<string, string> }): string[];
  bundledPackages(metafile: Metafile, workingDir: string): Map<string, Set<string>>;
  thirdPartyNotices(metafile: Metafile, workingDir: string): string;
}
interface BuildScript {
  bundleOptions: Record<string, unknown>;
}

const contents = (await import(pathToFileURL(join(root, 'scripts/package-contents.mjs')).href)) as PackageContents;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  files: string[];
};

/** One output importing `imports` (external) and holding `inputs` (bytes each). */
function metafileOf(imports: string[], inputs: Record<string, number> = {}): Metafile {
  return {
    inputs: {},
    outputs: {
      'dist/main.js': {
        imports: imports.map((path) => ({ path, kind: 'require-call', external: true })),
        inputs: Object.fromEntries(Object.entries(inputs).map(([k, bytesInOutput]) => [k, { bytesInOutput }])),
      },
    },
  };
}

describe('runtime dependencies', () => {
  let metafile: Metafile;
  beforeAll(async () => {
    // The real build, in memory: same options as `npm run build`, with esbuild's account of what it bundled.
    const { build } = await import('esbuild');
    const { bundleOptions } = (await import(pathToFileURL(join(root, 'scripts/build.mjs')).href)) as BuildScript;
    const result = await build({
      ...bundleOptions,
      absWorkingDir: root,
      entryPoints: ['src/main.ts'],
      outdir: tempDir('creators-meta-'),
      write: false,
      metafile: true,
    });
    metafile = result.metafile as Metafile;
  }, 60_000);

  it('package.json depends on exactly the packages the built output imports at run time', () => {
    expect(contents.dependencyProblems(metafile, pkg)).toEqual([]);
    expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual(
      [...contents.runtimePackages(metafile).keys()].filter((n) => !(n in contents.OPTIONAL_EXTERNALS)).sort(),
    );
    // The store's native binding is the one package esbuild cannot bundle.
    expect(pkg.dependencies).toHaveProperty('libsql');
  });

  it('the launcher, which is not bundled, imports only Node built-ins and dist/', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['bin/creators.js'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      external: ['../dist/*'],
      write: false,
      metafile: true,
      outdir: tempDir('creators-meta-'),
    });
    const launcher = result.metafile as Metafile;
    expect(Object.values(launcher.outputs).flatMap((o) => o.imports.map((i) => i.path))).toContain('../dist/main.js');
    expect(contents.dependencyProblems(launcher, { dependencies: {} })).toEqual([]);
  });

  it('the notices name every package whose code is in dist/', () => {
    const notices = readFileSync(join(root, 'dist/THIRD-PARTY-NOTICES.txt'), 'utf8');
    const dirs = [...contents.bundledPackages(metafile, root).keys()];
    expect(dirs.length).toBeGreaterThan(20);
    for (const dir of dirs) {
      const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      expect(notices).toContain(`\n${name} ${version}\n`);
    }
    expect(notices).toMatch(/\nundici \d[^\n]*\nLicense: MIT\n[\s\S]*Copyright \(c\) Matteo Collina/);
    // A licence in a sub-folder of a bundled package travels too.
    expect(notices).toContain('Files under lib/web/fetch/:\n\nMIT License\n\nCopyright (c) 2020 Ethan Arrowood');
  });
});

describe('dependencyProblems', () => {
  it('names an import left external that no dependency provides, and a dependency nothing imports', () => {
    const problems = contents.dependencyProblems(
      metafileOf(['node:fs', 'stream', 'util/types', 'left-pad/index.js', '@scope/tool/x', 'libsql', 'pg-native']),
      {
        dependencies: { libsql: '1', '@scope/tool': '2', commander: '14' },
      },
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^dist\/main\.js imports 'left-pad' at run time but package\.json does not list it in dependencies/,
    );
    expect(problems[1]).toMatch(
      /^'commander' is in dependencies but the built output never imports it .*move it to devDependencies$/,
    );
  });
});

describe('thirdPartyNotices', () => {
  /** A node_modules folder with packages given as name -> files. */
  function modules(packages: Record<string, Record<string, string>>): string {
    const dir = tempDir('creators-notices-');
    for (const [name, files] of Object.entries(packages)) {
      mkdirSync(join(dir, 'node_modules', name), { recursive: true });
      writeFileSync(
        join(dir, 'node_modules', name, 'package.json'),
        JSON.stringify({ name, version: '1.2.3', license: 'MIT' }),
      );
      for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'node_modules', name, file), text);
    }
    return dir;
  }

  it('copies a LICENSE file, or the licence section of a README, for each package with code in the output', () => {
    const dir = modules({
      'has-file': { 'index.js': '', LICENSE: 'Copyright (c) A\nMIT text' },
      'in-readme': {
        'index.js': '',
        'README.md': '# in-readme\n\nUse it.\n\n## License\n\nCopyright (c) B\nMIT text\n\n## Other\nnot this',
      },
      'tree-shaken': { 'index.js': '' },
    });
    const text = contents.thirdPartyNotices(
      metafileOf([], {
        'node_modules/has-file/index.js': 10,
        'node_modules/in-readme/index.js': 5,
        'node_modules/tree-shaken/index.js': 0,
      }),
      dir,
    );
    expect(text).toContain('Packages: has-file@1.2.3, in-readme@1.2.3\n');
    expect(text).toContain('has-file 1.2.3\nLicense: MIT\n\nCopyright (c) A\nMIT text\n');
    expect(text).toContain('in-readme 1.2.3\nLicense: MIT\n\nCopyright (c) B\nMIT text\n');
    expect(text).not.toContain('not this');
  });

  it('refuses a bundled package with no licence text, naming it', () => {
    const dir = modules({ 'no-licence': { 'index.js': '', 'README.md': '# no-licence\n\n## License\n\nMIT' } });
    expect(() => contents.thirdPartyNotices(metafileOf([], { 'node_modules/no-licence/index.js': 10 }), dir)).toThrow(
      /^bundled package without a licence file: no-licence@1\.2\.3 \(.*\); its licence cannot travel with the package/,
    );
  });
});

describe('the packed package', () => {
  it('holds bin/, dist/, the LICENSE and the notices, and no source map', () => {
    // --ignore-scripts: prepack would rebuild dist/ under the other tests' feet.
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [packed] = JSON.parse(r.stdout) as { files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path);
    expect(files).toContain('LICENSE');
    expect(files).toContain('dist/THIRD-PARTY-NOTICES.txt');
    expect(files).toContain('bin/creators.js');
    expect(files).toContain('dist/main.js');
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => !/^(bin|dist)\//.test(f)).sort()).toEqual(['LICENSE', 'README.md', 'package.json']);
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} creators contributors\n/,
    );
  });
});
