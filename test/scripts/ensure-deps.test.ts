// `npm run demo` and `npm test` are the README's first commands on a fresh clone: their pre-script installs the
// dependencies when node_modules lacks any of them, and costs nothing when all are there. A fake npm (through
// npm_execpath, as npm itself passes it) records what would be run, so nothing reaches a registry.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const script = fileURLToPath(new URL('../../scripts/ensure-deps.mjs', import.meta.url));
const packageJson = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
  scripts: Record<string, string>;
};

/** A clone-like folder: package.json, a lock file, scripts/ensure-deps.mjs and a fake npm that installs by writing package.json files. */
function fakeClone(lock: boolean): { root: string; log: string } {
  const root = tempDir('creators-clone-');
  mkdirSync(join(root, 'scripts'));
  copyFileSync(script, join(root, 'scripts', 'ensure-deps.mjs'));
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ dependencies: { 'left-pad': '1' }, devDependencies: { '@scope/tool': '2' } }),
  );
  if (lock) writeFileSync(join(root, 'package-lock.json'), '{}');
  const log = join(root, 'npm.log');
  writeFileSync(
    join(root, 'fake-npm.js'),
    `const fs = require('node:fs'), path = require('node:path');
fs.appendFileSync(${JSON.stringify(log)}, process.argv.slice(2).join(' ') + '\\n');
for (const name of ['left-pad', '@scope/tool']) {
  fs.mkdirSync(path.join(process.cwd(), 'node_modules', name), { recursive: true });
  fs.writeFileSync(path.join(process.cwd(), 'node_modules', name, 'package.json'), '{}');
}`,
  );
  return { root, log };
}

function runEnsure(root: string) {
  return spawnSync(process.execPath, [join(root, 'scripts', 'ensure-deps.mjs')], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, npm_execpath: join(root, 'fake-npm.js') },
  });
}

describe('scripts/ensure-deps.mjs (predemo, pretest)', () => {
  it('is the pre-script of both README commands', () => {
    expect(packageJson.scripts.predemo).toBe('node scripts/ensure-deps.mjs');
    expect(packageJson.scripts.pretest).toBe('node scripts/ensure-deps.mjs');
  });

  it('runs npm ci when node_modules is missing and a lock file exists, then nothing the second time', () => {
    const { root, log } = fakeClone(true);
    const first = runEnsure(root);
    expect(first.status).toBe(0);
    expect(first.stderr).toContain('running npm ci first');
    expect(readFileSync(log, 'utf8')).toBe('ci --no-audit --no-fund\n');
    const second = runEnsure(root);
    expect(second.status).toBe(0);
    expect(second.stderr).toBe('');
    expect(readFileSync(log, 'utf8')).toBe('ci --no-audit --no-fund\n');
  });

  it('runs npm install without a lock file, and fails with npm when npm fails', () => {
    const { root, log } = fakeClone(false);
    expect(runEnsure(root).status).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('install --no-audit --no-fund\n');

    const broken = fakeClone(true);
    writeFileSync(join(broken.root, 'fake-npm.js'), 'process.exit(3)');
    const res = runEnsure(broken.root);
    expect(res.status).toBe(3);
    expect(res.stderr).toContain('npm ci failed');
    expect(existsSync(join(broken.root, 'node_modules'))).toBe(false);
  });
});
