#!/usr/bin/env node
// Tiny launcher: everything lives in dist/main.js; main() returns the exit code.
import module from 'node:module';
module.enableCompileCache?.();
const { run } = await import('../dist/main.js');
process.exitCode = await run();
