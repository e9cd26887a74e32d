#!/usr/bin/env node
// `npm run build`: bundles src/main.ts into dist/ with esbuild, then writes the help snapshot.
//
// - ESM with code splitting: every lazily imported command module (and the sandbox) becomes its own
//   chunk, so a command parses only what it runs. Types are checked by `npm run typecheck`; esbuild
//   only strips them.
// - One entry per top-level command (dist/cmd-<name>.js, commandEntries) beside dist/main.js, and the read
//   commands' whole path regrouped into one chunk by rolldown (regroup): a one-request command reads 3 files.
// - Chunks stay flat in dist/ because program.ts finds ../package.json relative to its own file.
// - The help snapshot (dist/help/): commander plus the whole command tree cost ~25 ms to load and build,
//   more than bare Node's whole start-up, so `--help` of each command is rendered here once, at the
//   widths where it can be known in advance, and bin/creators.js prints it without loading the CLI.
// - The build goes to dist.tmp/ and replaces dist/ at the end, so a concurrent `node bin/creators.js`
//   never sees a half-written tree.
// - What the package holds is checked against esbuild's metafile (scripts/package-contents.mjs): the
//   build fails when package.json's `dependencies` differ from the packages the output imports at run
//   time, and writes dist/THIRD-PARTY-NOTICES.txt with the licence of every package it bundled (failing
//   when one has none).
// - No source maps: nothing reads them unless Node runs with --enable-source-maps, and they were two thirds
//   of the package. `npm run build -- --sourcemap` writes them for debugging a build locally
//   (`node --enable-source-maps bin/creators.js ...`); `npm pack` rebuilds without them (prepack).
import { build, transform } from 'esbuild';
import { rolldown } from 'rolldown';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { dependencyProblems, thirdPartyNotices } from './package-contents.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * esbuild cannot see the named exports of a CommonJS package, so `await import('undici')` in a split
 * ESM bundle yields only `default` (`undici.Agent is not a constructor`). This plugin puts an ESM
 * facade in front of such packages, re-exporting every name the package has when the build runs.
 */
export function cjsNamedExports(packages) {
  const require = createRequire(import.meta.url);
  return {
    name: 'cjs-named-exports',
    setup(b) {
      const filter = new RegExp(`^(${packages.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
      b.onResolve({ filter }, (args) =>
        args.namespace === 'cjs-named' ? undefined : { path: args.path, namespace: 'cjs-named' },
      );
      b.onLoad({ filter: /.*/, namespace: 'cjs-named' }, (args) => {
        const names = Object.keys(require(args.path)).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
        const contents = [
          `import real from ${JSON.stringify(args.path)};`,
          'export default real;',
          ...names.map((n) => `export const ${n} = real.${n};`),
        ].join('\n');
        return { contents, loader: 'js', resolveDir: root };
      });
    },
  };
}

/**
 * undici's HTTP/2 client (client-h2.js) requires `node:http2` when it loads, which pulls in node:http2 and
 * node:tls: ~4-5 ms of every command that makes a request, for a protocol this CLI never asks for
 * (`allowH2` is off). This plugin gives that one file a stand-in with http2's constants copied when the
 * build runs (all client-h2 reads at load) and a `connect` that loads the real module on first call.
 */
export function lazyHttp2ForUndici() {
  const require = createRequire(import.meta.url);
  return {
    name: 'lazy-http2-for-undici',
    setup(b) {
      b.onResolve({ filter: /^(node:)?http2$/ }, (args) =>
        /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/.test(args.importer)
          ? { path: 'http2', namespace: 'lazy-http2' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'lazy-http2' }, () => ({
        contents: [
          `module.exports = { constants: ${JSON.stringify(require('node:http2').constants)},`,
          "  connect: (...args) => require('node:http2').connect(...args) };",
        ].join('\n'),
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

/**
 * commander requires `node:child_process` when it loads (~2 ms on Node 20), for executable subcommands, which
 * this CLI has none of: its `spawn` is read from the real module on first use.
 */
export function lazyChildProcessForCommander() {
  return {
    name: 'lazy-child-process-for-commander',
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
        /commander[\\/]lib[\\/]command\.js$/.test(args.importer)
          ? { path: 'child_process', namespace: 'lazy-child-process' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
        contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

/**
 * Node's built-in modules through `require()` instead of ESM `import`. Importing a built-in from ESM makes
 * Node build an ESM facade of it, which reads every one of its exports, lazy ones included: `node:http`'s
 * exports on Node 22 and 24 include WebSocket and friends, so an ESM import of node:http loads Node's own
 * copy of undici (measured: 58-130 ms against 4-12 ms for require() on this machine, Node 20 to 24; node:fs and
 * node:os cost a few ms more too). The bundle's banner already defines `require` (createRequire); esbuild's
 * CommonJS interop gives the named and default imports, read when used. The built-ins of packages go the
 * same way.
 */
export function builtinsViaRequire() {
  const names = builtinModules.filter((n) => !n.startsWith('_')).map((n) => n.replace(/[/]/g, '\\/'));
  const filter = new RegExp(`^(node:.+|${names.join('|')})$`);
  return {
    name: 'builtins-via-require',
    setup(b) {
      // Static imports only: esbuild gives a dynamic import() of a CommonJS module in its own chunk nothing but
      // `default`, so `await import('node:https')` stays an import (lib/http/transport.ts says why it is one).
      b.onResolve({ filter }, (args) =>
        args.namespace === 'builtin-require' || args.kind !== 'import-statement'
          ? undefined
          : { path: args.path, namespace: 'builtin-require' },
      );
      b.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

/**
 * Bundled packages without their comments: esbuild keeps the JSDoc of functions and class members, 120 KB
 * of the packages' code (commander's and undici's mostly) that Node would read at every start, and the
 * margin under the package's size budget (scripts/package-test.mjs). Only node_modules: our own code stays
 * as written, and esbuild still writes the `// node_modules/<path>` line above each module
 * (test/e2e/startup-modules.test.ts reads them). The bundler prints the code again, so only the comments
 * go; minifying whitespace would have to apply to the whole output.
 */
export function stripPackageComments() {
  return {
    name: 'strip-package-comments',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const { code } = await transform(source, {
          loader: 'js',
          minifyWhitespace: true,
          legalComments: 'none',
          sourcefile: args.path,
        });
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/**
 * zod (which the MCP SDK's protocol types are written in) re-exports its error messages in 60-odd languages as
 * `z.locales`; the SDK's namespace imports keep them all in the bundle, 330 KB that nothing here reads (English,
 * the default, is imported by zod's schemas directly). Its locales index is given English alone.
 */
export function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(b) {
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
          ? { path: args.importer.replace(/[\\/][^\\/]+[\\/][^\\/]+$/, '/locales/index.js'), namespace: 'zod-locales' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
        contents: `export { default as en } from ${JSON.stringify(args.path.replace(/index\.js$/, 'en.js'))};`,
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

/** Top-level commands that read the whole tree or run other verbs (program.ts READS_THE_TREE): no entry of their own. */
const WHOLE_TREE_COMMANDS = new Set(['help', 'completion', 'mcp']);

/**
 * One entry per top-level command (`dist/cmd-credits.js`, `dist/cmd-auth.js` ...) beside `dist/main.js`, so a
 * command parses only its own declaration, not the ~100 others (~160 KB of main.js, about 10 ms of every
 * run on Node 20 where no compile cache keeps them). bin/creators.js takes `cmd-<first word>.js` when it
 * exists and the command line holds no help request; anything else goes through main.js and the whole tree.
 *
 * program.ts builds commander's tree from `COMMAND_TREE` (src/commands/index.ts), read when a program is
 * built. In the bundle that import is a slot each entry fills before it runs: main.js with the whole tree,
 * cmd-<name>.js with its one node (what program.ts `treeFor` would have sliced to: one command, or one group
 * with all its verbs, so commander's messages and suggestions are unchanged). Returns the entry points and
 * the plugin.
 */
export function commandEntries() {
  const index = readFileSync(`${root}src/commands/index.ts`, 'utf8');
  const files = new Map(
    [...index.matchAll(/^import (\w+) from '(\.\/[^']+)\.js';$/gm)].map((m) => [
      m[1],
      `${root}src/commands/${m[2].slice(2)}.ts`,
    ]),
  );
  const listed = index
    .slice(index.indexOf('COMMAND_TREE'))
    .match(/^\s+(\w+),$/gm)
    .map((l) => l.trim().slice(0, -1));
  const names = listed.filter((n) => !WHOLE_TREE_COMMANDS.has(n));
  const entryPoints = {
    main: 'virtual-entry:main',
    ...Object.fromEntries(names.map((n) => [`cmd-${n}`, `virtual-entry:${n}`])),
  };
  const plugin = {
    name: 'command-entries',
    setup(b) {
      b.onResolve({ filter: /^virtual-entry:/ }, (args) => ({
        path: args.path.slice('virtual-entry:'.length),
        namespace: 'command-entry',
      }));
      b.onResolve({ filter: /^tree-slot$/ }, () => ({ path: 'tree-slot', namespace: 'tree-slot' }));
      b.onResolve({ filter: /[\\/]commands[\\/]index\.js$/ }, (args) =>
        /[\\/]src[\\/]program\.ts$/.test(args.importer) ? { path: 'tree-slot', namespace: 'tree-slot' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'tree-slot' }, () => ({
        contents: 'export let COMMAND_TREE = [];\nexport function setTree(tree) { COMMAND_TREE = tree; }\n',
        loader: 'js',
      }));
      b.onLoad({ filter: /.*/, namespace: 'command-entry' }, (args) => {
        const tree =
          args.path === 'main'
            ? `import { COMMAND_TREE as tree } from ${JSON.stringify(`${root}src/commands/index.ts`)};`
            : `import node from ${JSON.stringify(files.get(args.path))};\nconst tree = [node];`;
        return {
          contents: [
            "import { setTree } from 'tree-slot';",
            tree,
            'setTree(tree);',
            `export * from ${JSON.stringify(`${root}src/main.ts`)};`,
          ].join('\n'),
          loader: 'js',
          resolveDir: root,
        };
      });
    },
  };
  for (const n of names)
    if (!files.has(n)) throw new Error(`build: src/commands/index.ts lists ${n} without an import of it`);
  return { entryPoints, plugin, names };
}

/** Commands that make one request and print it: their whole path is regrouped into one chunk (regroup). */
export const READ_COMMANDS = ['credits', 'dict', 'auth'];

/**
 * What a read never runs: a dynamic import of a chunk holding any of these stays its own chunk. The rest of
 * what the read commands can reach (main.ts, commander, the Context, the HTTP client on node:http, the
 * response schemas, the output printers...) is one chunk.
 */
const COLD = new RegExp(
  [
    'node_modules/(undici|conf|ajv|semver|atomically|ora|cli-table3|csv-parse|csv-stringify|open|pg|pg-[a-z-]+|pgpass|when-exit|stubborn)/',
    'src/(sandbox/|lib/(store|csv|bulk|batch|events|listening)/|lib/output/(pager|card|chart)|lib/io/(pager-process|spinner|prompt)|lib/auth/(oauth|session|callback|pkce|login)|lib/config\\.ts|app/factory/store\\.ts)',
  ].join('|'),
);

/**
 * The esbuild outputs a read command loads: its entry, what that imports, and what it imports dynamically
 * unless the target (or what it imports) holds a COLD module.
 */
export function readPath(metafile, outdir) {
  const outputs = metafile.outputs;
  // A chunk is cold when it or anything it imports statically holds a COLD module.
  const cold = (file, seen = new Set()) => {
    if (seen.has(file)) return false;
    seen.add(file);
    return (
      Object.keys(outputs[file].inputs).some((input) => COLD.test(input)) ||
      outputs[file].imports.some((im) => !im.external && im.kind === 'import-statement' && cold(im.path, seen))
    );
  };
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const im of outputs[file].imports)
      if (!im.external && !(im.kind === 'dynamic-import' && cold(im.path))) walk(im.path);
  };
  const prefix = Object.keys(outputs)
    .find((f) => f.endsWith('/main.js'))
    .slice(0, -'main.js'.length);
  for (const name of READ_COMMANDS) walk(`${prefix}cmd-${name}.js`);
  return new Set(
    [...seen].filter((f) => !/\/(main|cmd-[a-z0-9-]+)\.js$/.test(f)).map((f) => `${outdir}/${f.slice(prefix.length)}`),
  );
}

/**
 * esbuild splits at every dynamic import, and the modules shared by different sets of them fall into small
 * chunks: a `credits` run read 48 files, and on Node 20 each costs a file read, a resolve, a compile and a
 * link (~0.5 ms of CPU each here). rolldown takes esbuild's output as it is and puts the read commands'
 * whole path (readPath) into one chunk; everything else keeps esbuild's chunks. The `// src/...` line esbuild
 * writes above each module becomes a `/** ... *\/` comment, which rolldown keeps (test/e2e/startup-modules.test.ts
 * reads them).
 */
export async function regroup(from, to, hot) {
  const entries = Object.fromEntries(
    (await readdir(from))
      .filter((f) => f === 'main.js' || f.startsWith('cmd-'))
      .map((f) => [f.slice(0, -3), `${from}/${f}`]),
  );
  const marks = {
    name: 'module-marks',
    transform: (code) => ({
      code: code.replace(/^\/\/ ((?:\S*?\/)?(?:src|node_modules)\/\S+)$/gm, '/** $1 */'),
      map: null,
    }),
  };
  const bundle = await rolldown({
    input: entries,
    platform: 'node',
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    treeshake: false,
    plugins: [marks],
    logLevel: 'warn',
  });
  await bundle.write({
    dir: to,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunk-[hash].js',
    comments: { legal: false, annotation: true, jsdoc: true },
    codeSplitting: { groups: [{ name: 'read', test: (id) => hot.has(id) }] },
  });
  await bundle.close();
}

/** Shared options, also used by the benchmark harness (bench/) to bundle its own entries. */
export const bundleOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  splitting: true,
  sourcemap: false,
  // Shorter code, the same names and lines per statement (stack traces stay readable): 165 KB less to
  // install, which keeps the package under its 3 MB budget.
  minifySyntax: true,
  // commander, undici and cli-table3 are CommonJS: inside an ESM bundle their `require('node:...')`
  // calls need a real `require`, or they die with "Dynamic require of ... is not supported".
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
  legalComments: 'none',
  // The store's SQLite binding loads a native library per platform: it stays a runtime dependency.
  external: ['libsql'],
  plugins: [
    builtinsViaRequire(),
    cjsNamedExports(['undici']),
    lazyHttp2ForUndici(),
    lazyChildProcessForCommander(),
    zodEnglishOnly(),
    stripPackageComments(),
  ],
};

/** Width of help when stdout is not a terminal (commander's default). */
export const PIPE_WIDTH = 80;
const NO_WRAP = 100_000;

/** Renders `creators <path> --help` through the built CLI at a given terminal width. */
async function renderHelp(main, path, width) {
  let out = '';
  let err = '';
  const sink = (add) => ({ write: (s) => (add(String(s)), true) });
  const deps = {
    io: {
      stdin: process.stdin,
      stdout: sink((s) => (out += s)),
      stderr: sink((s) => (err += s)),
      stdinIsTTY: false,
      stdoutIsTTY: true,
      stderrIsTTY: false,
      columns: width,
    },
    env: {},
    cwd: root,
    now: () => Date.now(),
    sleep: async () => {},
  };
  const code = await main([...path, '--help'], deps);
  if (code !== 0 || err !== '')
    throw new Error(`help snapshot: 'creators ${path.join(' ')} --help' exited ${code}: ${err}`);
  return out;
}

/** Subcommand names listed in a help text's "Commands:" section (first name of `name|alias`; not commander's implicit `help [command]`). */
function subcommands(text) {
  const section = text.split(/\nCommands:\n/)[1];
  if (!section) return [];
  const names = [];
  for (const line of section.split('\n')) {
    if (line === '' || !line.startsWith('  ')) break;
    const m = /^ {2}(\S+)( \S+)?/.exec(line);
    if (!m || (m[1] === 'help' && m[2] === ' [command]')) continue;
    names.push(m[1].split('|')[0]);
  }
  return names;
}

/**
 * Writes dist/help/<words joined by '.'>.json = {pipe, wide, wideFrom}: the text at 80 columns (stdout
 * not a terminal, or a terminal exactly 80 wide) and the unwrapped text with the smallest terminal width
 * at which commander wraps nothing (checked by rendering it at that width). Other widths are not
 * snapshotted: the launcher falls back to commander there.
 */
export async function writeHelpSnapshot(outdir) {
  const { main } = await import(pathToFileURL(`${outdir}/main.js`).href);
  const dir = `${outdir}/help`;
  await mkdir(dir, { recursive: true });
  let count = 0;
  const queue = [[]];
  while (queue.length > 0) {
    const path = queue.shift();
    const pipe = await renderHelp(main, path, PIPE_WIDTH);
    const wide = await renderHelp(main, path, NO_WRAP);
    const wideFrom = Math.max(...wide.split('\n').map((line) => line.length));
    const entry = { pipe };
    if ((await renderHelp(main, path, wideFrom)) === wide) Object.assign(entry, { wide, wideFrom });
    await writeFile(`${dir}/${path.length === 0 ? '_' : path.join('.')}.json`, JSON.stringify(entry));
    count++;
    for (const name of subcommands(wide)) queue.push([...path, name]);
  }
  return count;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const staging = `${root}dist.tmp`;
  // esbuild's output, before regroup (none with --sourcemap: rolldown would not carry esbuild's maps on).
  const esbuilt = `${root}dist.esbuild.tmp`;
  await rm(staging, { recursive: true, force: true });
  await rm(esbuilt, { recursive: true, force: true });
  const sourcemap = process.argv.includes('--sourcemap');
  const commands = commandEntries();
  const { metafile } = await build({
    ...bundleOptions,
    plugins: [commands.plugin, ...bundleOptions.plugins],
    sourcemap,
    metafile: true,
    absWorkingDir: root,
    entryPoints: commands.entryPoints,
    outdir: sourcemap ? staging : esbuilt,
  });
  if (!sourcemap) {
    await regroup(esbuilt, staging, readPath(metafile, esbuilt));
    await rm(esbuilt, { recursive: true, force: true });
  }
  const problems = dependencyProblems(metafile, JSON.parse(readFileSync(`${root}package.json`, 'utf8')));
  let notices;
  try {
    notices = thirdPartyNotices(metafile, root);
  } catch (e) {
    problems.push(e.message);
  }
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`build: ${p}\n`);
    await rm(staging, { recursive: true, force: true });
    process.exit(1);
  }
  await writeFile(`${staging}/THIRD-PARTY-NOTICES.txt`, notices);
  await writeHelpSnapshot(staging);
  // Each entry is named after its command's first word: the launcher finds it by that word.
  const topLevel = subcommands(JSON.parse(readFileSync(`${staging}/help/_.json`, 'utf8')).pipe);
  const unnamed = commands.names.filter((n) => !topLevel.includes(n));
  if (unnamed.length > 0) {
    process.stderr.write(
      `build: no top-level command is named ${unnamed.join(', ')} (src/commands/index.ts: name each import after its command)\n`,
    );
    process.exit(1);
  }
  await rm(`${root}dist.old`, { recursive: true, force: true });
  await rename(`${root}dist`, `${root}dist.old`).catch((e) => {
    if (e.code !== 'ENOENT') throw e;
  });
  await rename(staging, `${root}dist`);
  await rm(`${root}dist.old`, { recursive: true, force: true });
}
