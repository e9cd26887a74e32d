import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Start-up cost of the built CLI, by what it loads: every dist/ file a run imports (recorded by a module
 * hook) mapped back to the sources esbuild put in it (its `// src/...` and `// node_modules/...` lines),
 * and the Node built-ins it loaded. Each module named here cost a measurable part of `creators credits`
 * (bench/run.mjs) when it was loaded by a command that does not use it.
 */
const sb = useSandbox({ seed: 3 });

interface Loaded {
  /** Source files of the dist/ chunks imported (`src/lib/http/client.ts`, `node_modules/undici/lib/...`). */
  sources: string[];
  /** Node built-ins loaded (`http`, `http2`, `tls` ...). */
  builtins: string[];
  files: string[];
}

async function loadedBy(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; loaded: Loaded }> {
  const dir = tempDir('creators-startup-');
  const log = join(dir, 'loaded.txt');
  // The load hook appends each URL; the main thread adds the built-ins at exit. Node 22.15+ runs it in the
  // thread (module.registerHooks); Node 20 on the loader's thread (module.register, which Node 26 deprecates
  // with a warning on stderr).
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, 'url ' + url + '\\n'); return next(url, context); }\n`,
  );
  writeFileSync(
    join(dir, 'record.mjs'),
    [
      "import module from 'node:module';",
      "import { appendFileSync } from 'node:fs';",
      'if (module.registerHooks) {',
      `  module.registerHooks({ load(url, context, next) { appendFileSync(${JSON.stringify(log)}, 'url ' + url + '\\n'); return next(url, context); } });`,
      '} else {',
      `  module.register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`,
      '}',
      `process.on('exit', () => appendFileSync(${JSON.stringify(log)}, process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => 'builtin ' + m.slice(13) + '\\n').join('')));`,
    ].join('\n'),
  );
  const env = {
    ...sandboxEnv(sb.get()),
    CREATORS_CONFIG_DIR: join(dir, 'config'),
    NODE_OPTIONS: `--import=${pathToFileURL(join(dir, 'record.mjs')).href}`,
    ...extraEnv,
  };
  const res = await spawnCli(args, env);
  expect(res.stderr).toBe('');
  const lines = readFileSync(log, 'utf8').split('\n');
  const files = lines
    .filter((l) => l.startsWith('url file:') && l.includes('/dist/'))
    .map((l) => fileURLToPath(l.slice(4)));
  const sources = new Set<string>();
  for (const file of new Set(files)) {
    // esbuild names a package by its path from the checkout (`../main/node_modules/...` in a git worktree);
    // the regrouped chunks carry the same line as `/** ... */` (scripts/build.mjs regroup).
    for (const m of readFileSync(file, 'utf8').matchAll(
      /^(?:\/\/ |\/\*\* )(?:\S*?\/)?((?:src|node_modules)\/\S+?)(?: \*\/)?$/gm,
    ))
      sources.add(m[1] as string);
  }
  const builtins = lines.filter((l) => l.startsWith('builtin ')).map((l) => l.slice(8));
  return { code: res.code, stdout: res.stdout, loaded: { sources: [...sources], builtins, files } };
}

const packageOf = (source: string): string | undefined => /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];

describe('what start-up loads (built CLI)', () => {
  it('credits --json loads no module it does not use: no undici, HTTP/2 or TLS, no pager, card, spinner library, table, CSV or config library', async () => {
    const { code, stdout, loaded } = await loadedBy(['credits', '--json']);
    expect(code).toBe(0);
    expect(typeof JSON.parse(stdout).credits_available).toBe('number');
    // The hook saw the CLI load (a recorder that records nothing would pass everything below).
    expect(loaded.sources).toContain('src/lib/http/client.ts');
    expect(loaded.builtins).toContain('http');
    // A GET without a body goes through node:http (lib/http/transport.ts): undici, its modules and its
    // WebAssembly parser are for the requests that may spend, and for proxies.
    expect(loaded.sources.filter((s) => s.startsWith('node_modules/undici/'))).toEqual([]);
    // undici's HTTP/2 client requires node:http2 (and with it node:tls) when it loads; the build gives it a
    // stand-in that loads them only if HTTP/2 is used (scripts/build.mjs lazyHttp2ForUndici).
    expect(loaded.builtins).not.toContain('http2');
    expect(loaded.builtins).not.toContain('tls');
    const packages = new Set(loaded.sources.map(packageOf).filter((p) => p !== undefined));
    for (const heavy of ['ora', 'cli-table3', 'conf', 'csv-parse', 'csv-stringify', 'open'])
      expect([...packages], heavy).not.toContain(heavy);
    for (const lazy of [
      'src/lib/output/pager.ts',
      'src/lib/io/pager-process.ts',
      'src/lib/output/card.ts',
      'node_modules/undici/lib/dispatcher/env-http-proxy-agent.js',
      'node_modules/undici/lib/api/api-pipeline.js',
    ]) {
      expect(loaded.sources, lazy).not.toContain(lazy);
    }
  });

  it("credits, dict languages and auth status read a few files of dist/, and no other command's declaration", async () => {
    for (const args of [
      ['credits', '--json'],
      ['dict', 'languages', '--json'],
      ['auth', 'status'],
    ]) {
      const { code, loaded } = await loadedBy(args);
      expect(code, args.join(' ')).toBe(0);
      expect(loaded.sources, args.join(' ')).toContain('src/lib/http/client.ts');
      // Each file is a read, a resolve, a compile and a link on Node's ESM loader (scripts/build.mjs regroup):
      // the entry, the read path's chunk and esbuild's runtime helpers (was 48 for credits).
      expect(new Set(loaded.files).size, args.join(' ')).toBeLessThanOrEqual(5);
      // One entry per top-level command (scripts/build.mjs commandEntries): no other command's declaration
      // (the three read commands share their chunk).
      const commands = loaded.sources.filter((s) => s.startsWith('src/commands/'));
      expect(
        commands.filter((s) => !/^src\/commands\/(credits\.ts|dict\.ts|auth\/)/.test(s)),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('a POST loads undici in one piece: its request API and Agent come as one chunk, not a chain of small ones', async () => {
    const { code, loaded } = await loadedBy(['search', '--platform', 'instagram', '--limit', '1', '--json']);
    expect(code).toBe(0);
    expect(loaded.sources).toContain('node_modules/undici/lib/dispatcher/agent.js');
    expect(loaded.builtins).not.toContain('http2');
    const undiciFiles = new Set(
      loaded.files.filter((file) =>
        /^(?:\/\/ |\/\*\* )(?:\S*?\/)?node_modules\/undici\//m.test(readFileSync(file, 'utf8')),
      ),
    );
    expect(undiciFiles.size).toBeGreaterThan(0);
    expect(undiciFiles.size).toBeLessThanOrEqual(2);
  });

  it('--help and --version load nothing from dist/ (the launcher answers from the help snapshot)', async () => {
    for (const args of [['--help'], ['credits', '--help'], ['--version']]) {
      const { code, loaded } = await loadedBy(args);
      expect(code, args.join(' ')).toBe(0);
      expect(loaded.files, args.join(' ')).toEqual([]);
    }
  });
});
