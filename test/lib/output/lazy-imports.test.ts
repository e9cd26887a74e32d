import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const outputDir = path.resolve(here, '../../../src/lib/output');

describe('start-up cost', () => {
  it('never imports cli-table3, csv-stringify or ora at module top level', () => {
    const files = fs.readdirSync(outputDir).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      const source = fs.readFileSync(path.join(outputDir, name), 'utf8');
      // Static imports and re-exports; `await import('...')` inside functions is what we want.
      const staticImports = [...source.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+['"]([^'"]+)['"]/gm)].map(
        (m) => m[1],
      );
      for (const spec of staticImports) {
        expect(spec, `${name} imports ${spec}`).not.toMatch(/^(cli-table3|csv-stringify|ora)(\/|$)/);
      }
    }
  });
});
