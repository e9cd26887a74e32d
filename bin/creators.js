#!/usr/bin/env node
// Launcher. Everything lives in dist/ (esbuild bundle, one chunk per command); main() returns the exit code.
//
// Fast path: `creators --version` and `creators [command...] --help` are answered here, from the
// package version and the help snapshot `npm run build` renders through the real command tree
// (dist/help/*.json), without loading commander or the tree (which alone cost more than Node's own
// start-up). Anything else, or a terminal width the snapshot does not cover, goes through main().
import { readFileSync } from 'node:fs';
import module from 'node:module';
import v8 from 'node:v8';

module.enableCompileCache?.();

/** The text to print for argv when it is exactly a version or help request the snapshot covers. */
function quickAnswer(argv) {
  try {
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
      return `${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`;
    }
    const last = argv[argv.length - 1];
    if (last !== '--help' && last !== '-h') return undefined;
    const words = argv.slice(0, -1);
    if (!words.every((w) => /^[a-z][a-z0-9-]*$/.test(w))) return undefined;
    const file = new URL(`../dist/help/${words.length === 0 ? '_' : words.join('.')}.json`, import.meta.url);
    const help = JSON.parse(readFileSync(file, 'utf8'));
    // Commander wraps help to the terminal's width, and to 80 columns when stdout is not a terminal.
    const width = process.stdout.isTTY ? process.stdout.columns : 80;
    if (width === 80) return help.pipe;
    if (help.wide !== undefined && width >= help.wideFrom) return help.wide;
  } catch {
    // No snapshot for these words (an alias, a typo, an old build): commander answers.
  }
  return undefined;
}

const quick = quickAnswer(process.argv.slice(2));
if (quick !== undefined) {
  process.stdout.write(quick);
} else {
  // undici parses HTTP with a WebAssembly build of llhttp. V8 compiles it at once with its baseline
  // compiler (Liftoff), then again, optimised, on a background thread, and a process cannot exit until
  // that job ends: it added ~130 ms to every command that made a request (README, Performance). The
  // baseline code is fast enough to parse a 1 GB download at full speed.
  v8.setFlagsFromString('--liftoff-only');
  const { run } = await import('../dist/main.js');
  process.exitCode = await run();
}
