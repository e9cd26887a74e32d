/**
 * The layers inside src/lib (ARCHITECTURE.md, "Layers inside lib"): a file imports only its own layer or a lower
 * one, type-only and dynamic imports included. The API layer knows nothing of how things are shown (no import of
 * lib/output); what several layers say (counts, plurals, credits, widths) lives at the bottom.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Lowest first. A lib file in no layer fails the test: a new folder is placed here and in ARCHITECTURE.md. */
const LIB_LAYERS: ReadonlyArray<readonly [name: string, members: RegExp]> = [
  ['base', /^lib\/(errors|options|exact-json|words|platforms|recent-set|retry-policy|body|completion-values)\.ts$/],
  ['http', /^lib\/(http\/.+|ids|paging)\.ts$/],
  ['io', /^lib\/io\/.+\.ts$/],
  ['csv', /^lib\/csv\/.+\.ts$/],
  ['api', /^lib\/api\/.+\.ts$/],
  ['output', /^lib\/output\/.+\.ts$/],
  ['gate', /^lib\/cost\.ts$/],
  ['workflows', /^lib\/((auth|batch|bulk|discovery|events|listening|store)\/.+|config|config-change)\.ts$/],
];

function layerOf(file: string): number {
  return LIB_LAYERS.findIndex(([, members]) => members.test(file));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every relative import of a source (static, type-only, re-export, dynamic), as a path under src/ ending in .ts. */
function importsOf(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specs = [
    ...[...code.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?'(\.{1,2}\/[^']+)'/g)].map(
      (m) => m[1] as string,
    ),
    ...[...code.matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)].map((m) => m[1] as string),
  ];
  return specs.map((spec) => relative(src, resolve(dirname(join(src, file)), spec)).replace(/\.js$/, '.ts'));
}

const libGraph = (): Map<string, string[]> =>
  new Map(
    sources(join(src, 'lib'))
      .map((f) => relative(src, f))
      .map((f) => [f, importsOf(f, readFileSync(join(src, f), 'utf8'))]),
  );

/** Imports that run up the layers: `from -> to (lower layer imports higher layer)`. */
function backArrows(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const low = layerOf(from);
    for (const to of targets) {
      const high = layerOf(to);
      if (low >= 0 && high > low)
        found.push(`${from} -> ${to} (${LIB_LAYERS[low]?.[0]} imports ${LIB_LAYERS[high]?.[0]})`);
    }
  }
  return found;
}

/** The API layer's imports of lib/output (also a back-arrow, named on its own as the rule is). */
function apiShows(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([f, targets]) =>
    f.startsWith('lib/api/') ? targets.filter((t) => t.startsWith('lib/output/')).map((t) => `${f} -> ${t}`) : [],
  );
}

describe('layers inside src/lib', () => {
  it('every lib file belongs to a layer', () => {
    expect([...libGraph().keys()].filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('lib/api imports nothing of lib/output: the API layer knows nothing of how things are shown', () => {
    expect(apiShows(libGraph())).toEqual([]);
  });

  it('imports run one way: no lib file imports a higher layer', () => {
    expect(backArrows(libGraph())).toEqual([]);
  });

  it('the check sees each kind of back-arrow (a test that cannot fail is a defect)', () => {
    // The arrows as they were before the layers ran one way, planted on an otherwise empty graph.
    const planted = new Map([
      ['lib/api/plan.ts', ['lib/output/humanize.ts', 'lib/http/url.ts']],
      ['lib/api/batch.ts', ['lib/batch/status.ts', 'lib/batch/multipart.ts', 'lib/api/plan.ts']],
      ['lib/api/discovery.ts', ['lib/discovery/sort.ts']],
      ['lib/output/plan.ts', ['lib/cost.ts', 'lib/io/terminal.ts']],
      ['lib/io/pager-process.ts', ['lib/output/pager.ts']],
      ['lib/io/terminal.ts', ['lib/output/humanize.ts']],
      ['lib/csv/read.ts', ['lib/output/humanize.ts', 'lib/io/input.ts']],
      ['lib/http/client.ts', ['lib/io/terminal.ts']],
      ['lib/words.ts', ['lib/api/plan.ts']],
      ['lib/discovery/run.ts', ['lib/bulk/enrich.ts', 'lib/cost.ts', 'lib/output/sink.ts', 'lib/api/discovery.ts']],
    ]);
    expect(backArrows(planted)).toEqual([
      'lib/api/plan.ts -> lib/output/humanize.ts (api imports output)',
      'lib/api/batch.ts -> lib/batch/status.ts (api imports workflows)',
      'lib/api/batch.ts -> lib/batch/multipart.ts (api imports workflows)',
      'lib/api/discovery.ts -> lib/discovery/sort.ts (api imports workflows)',
      'lib/output/plan.ts -> lib/cost.ts (output imports gate)',
      'lib/io/pager-process.ts -> lib/output/pager.ts (io imports output)',
      'lib/io/terminal.ts -> lib/output/humanize.ts (io imports output)',
      'lib/csv/read.ts -> lib/output/humanize.ts (csv imports output)',
      'lib/http/client.ts -> lib/io/terminal.ts (http imports io)',
      'lib/words.ts -> lib/api/plan.ts (base imports api)',
    ]);
    expect(apiShows(planted)).toEqual(['lib/api/plan.ts -> lib/output/humanize.ts']);
    // The reader sees type-only and dynamic imports too.
    expect(
      importsOf(
        'lib/api/x.ts',
        "import type { ColumnSpec } from '../output/types.js';\nconst m = await import('../output/humanize.js');",
      ),
    ).toEqual(['lib/output/types.ts', 'lib/output/humanize.ts']);
    expect(layerOf('lib/newfolder/x.ts')).toBe(-1);
  });
});
