// What the published package must hold, read from esbuild's metafile of the build (`npm run build`):
//
// - runtime dependencies: the packages the built chunks still import (esbuild left them external) are the
//   package's `dependencies`, and nothing else is: a bundled package listed there would be downloaded by
//   every install and never loaded; an external one missing there would fail at run time on a user's machine.
// - third-party notices: the MIT/ISC/BSD licences of the bundled packages ask that their notice travel with
//   every copy, so the build writes the licence text of each package whose code is in the output.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';

/**
 * Imports left external that need no dependency, each with its reason. They sit in `require()` calls a
 * bundled package makes inside try/catch for an optional add-on this CLI never asks for.
 */
export const OPTIONAL_EXTERNALS = {
  'pg-native': "pg's optional libpq client, required only by pg.native, which the PostgreSQL store does not use",
};

/** `@scope/name/sub/path` -> `@scope/name`; `name/sub` -> `name`. */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isBuiltin(specifier) {
  return (
    specifier.startsWith('node:') || builtinModules.includes(specifier) || builtinModules.includes(packageOf(specifier))
  );
}

/** Package names the built output imports at run time (external, not a Node built-in or a relative path), with one output file that does. */
export function runtimePackages(metafile) {
  const found = new Map();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const imp of output.imports) {
      if (!imp.external || isBuiltin(imp.path) || /^(\.{1,2}\/|\/)/.test(imp.path)) continue;
      const name = packageOf(imp.path);
      if (!found.has(name)) found.set(name, file);
    }
  }
  return found;
}

/**
 * What is wrong with package.json's `dependencies` for this build, one sentence each: an import left
 * external that no dependency provides, or a dependency the output never loads (bundled, or unused).
 */
export function dependencyProblems(metafile, pkg) {
  const runtime = runtimePackages(metafile);
  const deps = Object.keys(pkg.dependencies ?? {});
  const problems = [];
  for (const [name, file] of runtime) {
    if (deps.includes(name) || name in OPTIONAL_EXTERNALS) continue;
    problems.push(
      `${file} imports '${name}' at run time but package.json does not list it in dependencies: add it there, or let esbuild bundle it`,
    );
  }
  for (const name of deps) {
    if (!runtime.has(name))
      problems.push(
        `'${name}' is in dependencies but the built output never imports it (esbuild bundled it, or nothing uses it): move it to devDependencies`,
      );
  }
  return problems;
}

const LICENCE_FILE = /^(licen[cs]e|copying)([.-].*)?$/i;

/**
 * The packages whose code is in the output (bytes > 0), from the metafile's input paths: a map from each
 * package's folder to the folders below it, holding bundled files, that carry a licence file of their own
 * (undici's fetch is under its author's licence in lib/web/fetch/LICENSE).
 */
export function bundledPackages(metafile, workingDir) {
  const packages = new Map();
  const hasLicence = new Map();
  const licensed = (dir) => {
    if (!hasLicence.has(dir))
      hasLicence.set(
        dir,
        readdirSync(dir).some((f) => LICENCE_FILE.test(f)),
      );
    return hasLicence.get(dir);
  };
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      // The innermost node_modules/ names the package: ora/node_modules/string-width is its own copy.
      const m = /^(?:[^:]+:)?(.*node_modules\/(?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(input);
      if (!m || bytesInOutput === 0) continue;
      const dir = resolve(workingDir, m[1]);
      if (!packages.has(dir)) packages.set(dir, new Set());
      const below = m[2].split('/').slice(0, -1);
      for (let i = below.length; i > 0; i--) {
        const sub = below.slice(0, i).join('/');
        if (licensed(join(dir, sub))) packages.get(dir).add(sub);
      }
    }
  }
  return packages;
}

/**
 * The licence text a package ships: its LICENSE/LICENCE/COPYING file(s), else the "License" section of its
 * README when that section holds a copyright line (pg-types and pgpass ship their MIT text only there).
 * Undefined when there is none.
 */
export function licenceText(dir) {
  const files = readdirSync(dir)
    .filter((f) => LICENCE_FILE.test(f))
    .sort();
  if (files.length > 0) return files.map((f) => readFileSync(join(dir, f), 'utf8').trim()).join('\n\n');
  const readme = readdirSync(dir).find((f) => /^readme(\.md|\.markdown|\.txt)?$/i.test(f));
  if (!readme) return undefined;
  const lines = readFileSync(join(dir, readme), 'utf8').split('\n');
  const start = lines.findIndex((l) => /^#{1,6}\s*licen[cs]e\b/i.test(l));
  if (start < 0) return undefined;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^#{1,6}\s/.test(l));
  const section = (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
  return /copyright/i.test(section) ? section : undefined;
}

/** A package's NOTICE file (Apache-2.0 asks that it travel too), if it has one. */
function noticeText(dir) {
  const file = readdirSync(dir).find((f) => /^notice([.-].*)?$/i.test(f));
  return file ? readFileSync(join(dir, file), 'utf8').trim() : undefined;
}

/**
 * THIRD-PARTY-NOTICES text for the packages bundled in this build, sorted by name. Throws, naming the
 * package, when one has no licence text to copy: its code must not ship without it.
 */
export function thirdPartyNotices(metafile, workingDir) {
  const entries = [];
  const missing = [];
  for (const [dir, subdirs] of bundledPackages(metafile, workingDir)) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const text = licenceText(dir);
    if (text === undefined) {
      missing.push(`${pkg.name}@${pkg.version} (${dir})`);
      continue;
    }
    const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    const notice = noticeText(dir);
    const head = [
      `${pkg.name} ${pkg.version}`,
      `License: ${pkg.license ?? 'see below'}`,
      ...(repo ? [`Repository: ${repo}`] : []),
    ];
    const parts = [head.join('\n'), text, ...(notice ? [notice] : [])];
    for (const sub of [...subdirs].sort()) parts.push(`Files under ${sub}/:\n\n${licenceText(join(dir, sub))}`);
    entries.push({ name: pkg.name, version: pkg.version, text: parts.join('\n\n') });
  }
  if (missing.length > 0) {
    throw new Error(
      `bundled package${missing.length > 1 ? 's' : ''} without a licence file: ${missing.join(', ')}; its licence cannot travel with the package: find its licence text or stop bundling it`,
    );
  }
  // Two copies of one name and version (nested node_modules) carry the same text: list it once.
  const unique = [...new Map(entries.map((e) => [`${e.name}@${e.version}`, e])).values()].sort(
    (a, b) => a.name.localeCompare(b.name, 'en') || a.version.localeCompare(b.version, 'en', { numeric: true }),
  );
  const rule = '-'.repeat(72);
  return [
    'THIRD-PARTY NOTICES',
    '',
    'creators-cli bundles the following packages into dist/ (esbuild). Their licences follow, as each',
    'package ships them. Generated by `npm run build` from what the build actually bundled.',
    '',
    `Packages: ${unique.map((e) => `${e.name}@${e.version}`).join(', ')}`,
    '',
    ...unique.flatMap((e) => [rule, '', e.text, '']),
  ].join('\n');
}
