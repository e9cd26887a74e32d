#!/usr/bin/env node
// `predemo` / `pretest`: on a fresh clone node_modules is missing, so `npm run demo` and `npm test` install
// what they need first (the README promises those two commands do all the set-up). Only Node built-ins here:
// this runs before any dependency exists. A complete install costs one stat per package and nothing else.
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const wanted = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
const missing = wanted.filter((name) => !existsSync(join(root, 'node_modules', name, 'package.json')));

if (missing.length > 0) {
  const verb = existsSync(join(root, 'package-lock.json')) ? 'ci' : 'install';
  process.stderr.write(
    `Dependencies missing (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''}): running npm ${verb} first.\n`,
  );
  // npm sets npm_execpath for scripts it runs; fall back to `npm` on PATH when started by hand.
  const npmCli = process.env.npm_execpath;
  const result =
    npmCli && npmCli.endsWith('.js')
      ? spawnSync(process.execPath, [npmCli, verb, '--no-audit', '--no-fund'], {
          cwd: root,
          stdio: ['ignore', 'inherit', 'inherit'],
        })
      : spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', [verb, '--no-audit', '--no-fund'], {
          cwd: root,
          stdio: ['ignore', 'inherit', 'inherit'],
          shell: process.platform === 'win32',
        });
  if (result.status !== 0) {
    process.stderr.write(
      `npm ${verb} failed (${result.error?.message ?? `exit ${result.status}`}); run it yourself and try again.\n`,
    );
    process.exit(result.status || 1);
  }
}
