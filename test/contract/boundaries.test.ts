/** src/contract is plain data imported by both sides; the sandbox reaches outside itself only for it. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every relative import of a file, as a path under src/ (e.g. `contract/prices.js`). */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => relative(src, resolve(dirname(file), s)));
}

describe('import boundaries', () => {
  it('src/contract imports nothing outside itself', () => {
    for (const file of sources(join(src, 'contract'))) {
      for (const target of localImports(file)) expect(target, relative(src, file)).toMatch(/^contract\//);
    }
  });

  it('src/sandbox imports only itself and src/contract', () => {
    for (const file of sources(join(src, 'sandbox'))) {
      for (const target of localImports(file)) expect(target, relative(src, file)).toMatch(/^(sandbox|contract)\//);
    }
  });
});
