#!/usr/bin/env node
// Launcher. Everything lives in dist/ (esbuild bundle, one chunk per command); run() returns the exit code.
//
// Written for old Nodes too (no top-level await, `?.` or `??`, no static import): on a Node the CLI does
// not support, this file must still parse and say so in one line, not die with a SyntaxError from dist/
// (test/e2e/node-version.test.ts).
//
// Fast path: `creators --version` and `creators [command...] --help` are answered here, from the
// package version and the help snapshot `npm run build` renders through the real command tree
// (dist/help/*.json), without loading commander or the tree (which alone cost more than Node's own
// start-up). Anything else, or a terminal width the snapshot does not cover, goes through run().
//
// Built-ins through process.getBuiltinModule (Node 20.16+), not ESM imports: an ESM import of a built-in
// builds a facade reading all its exports (node:fs's lazy ones included), ~0.5-2 ms --version would pay.

/** The oldest Node this runs on (undici 7 needs 20.18.1), and the day Node 20's support ends (README, Install). */
const OLDEST = [20, 18, 1];
const NODE_20_UNTIL = '2027-04-30';

const nodeVersion = process.versions.node.split('.').map(Number);
function older(a, b) {
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

if (older(nodeVersion, OLDEST)) {
  process.stderr.write(
    `creators needs Node.js ${OLDEST.join('.')} or later (22, 24 or 26 recommended); this is Node.js ${process.version}. Install a current release from https://nodejs.org.\n`,
  );
  process.exitCode = 1;
} else {
  start(process.argv.slice(2), process.getBuiltinModule('fs'), process.getBuiltinModule('module'));
}

function start(argv, fs, module) {
  // On a terminal only: scripts and pipes see the same stderr on every supported Node.
  if (nodeVersion[0] === 20 && process.stderr.isTTY && !argv.includes('--quiet') && process.env.CREATORS_NO_NODE_NOTICE !== '1') {
    process.stderr.write(`Node.js 20 reached its end of life on 2026-04-30; creators supports it until ${NODE_20_UNTIL}: upgrade to Node.js 22 or later.\n`);
  }
  const quick = quickAnswer(argv, fs);
  if (quick !== undefined) {
    process.stdout.write(quick);
    return;
  }
  // Node 22.1+: V8's compiled code of dist/ kept between runs, in Node's default folder (the system's temp
  // folder); a folder it cannot write is skipped by Node itself (test/e2e/node-version.test.ts). Not for
  // the answers above, which load nothing to compile.
  if (typeof module.enableCompileCache === 'function') module.enableCompileCache();
  const entry = commandEntry(argv, fs);
  (entry ? import(entry) : import('../dist/main.js'))
    .then((m) => m.run())
    .then((code) => {
      process.exitCode = code;
    });
}

/**
 * The URL of dist/cmd-<first word>.js, which holds that command's declaration alone, when the command line starts with
 * a top-level command's name and asks for no help (a group's help lists its verbs, a misspelt word is
 * suggested among them: those take the whole tree in main.js, as does anything else: undefined).
 */
function commandEntry(argv, fs) {
  const first = argv[0] || '';
  if (/^[a-z][a-z0-9-]*$/.test(first) && !argv.includes('--help') && !argv.includes('-h')) {
    const file = new URL(`../dist/cmd-${first}.js`, import.meta.url);
    if (fs.existsSync(file)) return file.href;
  }
  return undefined;
}

/** The text to print for argv when it is exactly a version or help request the snapshot covers. */
function quickAnswer(argv, fs) {
  try {
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
      return `${JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`;
    }
    const last = argv[argv.length - 1];
    if (last !== '--help' && last !== '-h') return undefined;
    const words = argv.slice(0, -1);
    if (!words.every((w) => /^[a-z][a-z0-9-]*$/.test(w))) return undefined;
    const file = new URL(`../dist/help/${words.length === 0 ? '_' : words.join('.')}.json`, import.meta.url);
    const help = JSON.parse(fs.readFileSync(file, 'utf8'));
    // Commander wraps help to the terminal's width, and to 80 columns when stdout is not a terminal.
    const width = process.stdout.isTTY ? process.stdout.columns : 80;
    if (width === 80) return help.pipe;
    if (help.wide !== undefined && width >= help.wideFrom) return help.wide;
  } catch {
    // No snapshot for these words (an alias, a typo, an old build): commander answers.
  }
  return undefined;
}
