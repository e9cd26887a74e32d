/**
 * The house rules of ARCHITECTURE.md ("Rules"), checked on the source. Each checker is a pure function over a map
 * of source texts (path under src/ -> text), so each test below also plants a violation and sees it reported.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

type Sources = ReadonlyMap<string, string>;

interface Edge {
  to: string;
  dynamic: boolean;
}
type Graph = ReadonlyMap<string, Edge[]>;

/** Every relative import of a file (static, type-only, re-export, dynamic), as paths under src/ ending in .ts. */
function imports(file: string, source: string): Edge[] {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const edges: Edge[] = [];
  for (const m of text.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?'(\.{1,2}\/[^']+)'/g)) {
    edges.push({ to: toSource(file, m[1] as string), dynamic: false });
  }
  for (const m of text.matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g))
    edges.push({ to: toSource(file, m[1] as string), dynamic: true });
  return edges;
}

/** `file` and the result are paths under src/. */
function toSource(file: string, spec: string): string {
  return relative(src, resolve(dirname(join(src, file)), spec)).replace(/\.js$/, '.ts');
}

const graphOf = (texts: Sources): Graph => new Map([...texts].map(([f, text]) => [f, imports(f, text)]));

const texts = (): Map<string, string> => new Map(sources(src).map((f) => [relative(src, f), readFileSync(f, 'utf8')]));
let repoTexts: Map<string, string> | undefined;
let repoGraph: Graph | undefined;
/** src/ as it is, read once for the tests below. */
const repo = (): { texts: Sources; graph: Graph } => {
  repoTexts ??= texts();
  repoGraph ??= graphOf(repoTexts);
  return { texts: repoTexts, graph: repoGraph };
};

function violations(graph: Graph, from: RegExp, allowed: RegExp): string[] {
  return [...graph]
    .filter(([f]) => from.test(f))
    .flatMap(([f, edges]) => edges.filter((e) => !allowed.test(e.to)).map((e) => `${f} -> ${e.to}`));
}

/** The layer rules between src/'s folders (ARCHITECTURE.md, "Rules", the first). */
const FOLDER_RULES: ReadonlyArray<readonly [from: RegExp, allowed: RegExp, name: string]> = [
  [/^lib\//, /^(lib|contract)\//, 'lib'],
  [/^app\//, /^(app|lib|contract)\//, 'app'],
  [/^contract\//, /^contract\//, 'contract'],
  [/^sandbox\//, /^(sandbox|contract)\//, 'sandbox'],
];

function upwardImports(graph: Graph): string[] {
  return FOLDER_RULES.flatMap(([from, allowed]) => violations(graph, from, allowed));
}

/** A package (not a relative path, not node:) imported by src/contract, which may use valibot alone. */
function contractPackages(texts: Sources): string[] {
  return [...texts]
    .filter(([f]) => f.startsWith('contract/'))
    .flatMap(([f, text]) =>
      [...code(text).matchAll(/(?:\bfrom\s+|\bimport\(\s*|^\s*import\s+)['"]([^'"./][^'"]*)['"]/gm)]
        .map((m) => m[1] as string)
        .filter((pkg) => pkg !== 'valibot' && !pkg.startsWith('valibot/'))
        .map((pkg) => `${f} -> ${pkg}`),
    );
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function circles(graph: Graph, useDynamic: boolean): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const e of graph.get(v) ?? []) {
      if (e.dynamic && !useDynamic) continue;
      if (!graph.has(e.to)) continue;
      if (!idx.has(e.to)) {
        visit(e.to);
        low.set(v, Math.min(low.get(v) as number, low.get(e.to) as number));
      } else if (onStack.has(e.to)) {
        low.set(v, Math.min(low.get(v) as number, idx.get(e.to) as number));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (graph.get(v) ?? []).some((e) => e.to === v && (useDynamic || !e.dynamic));
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  };
  for (const f of graph.keys()) if (!idx.has(f)) visit(f);
  return found;
}

function unresolved(graph: Graph): string[] {
  return [...graph].flatMap(([f, edges]) =>
    edges.filter((e) => !e.to.startsWith('..') && !graph.has(e.to)).map((e) => `${f} -> ${e.to}`),
  );
}

/** Who imports contract/responses.ts (with the schema library), and who imports valibot besides it. */
function schemaLoaders(graph: Graph, texts: Sources): string[] {
  const importers = [...graph].flatMap(([f, edges]) =>
    edges.filter((e) => e.to === 'contract/responses.ts').map((e) => `${f}${e.dynamic ? ' (dynamic)' : ''}`),
  );
  const direct = [...texts]
    .filter(([f, text]) => f !== 'contract/responses.ts' && /from 'valibot'|import\('valibot'\)/.test(text))
    .map(([f]) => `${f} imports valibot`);
  return [...new Set(importers), ...direct];
}

/** The whole command tree is imported at start-up: anything heavy a verb imports up front is paid by every command. */
const LIGHT = /^(app\/(command|ports)|lib\/(errors|options|ids|platforms)|contract\/.*|commands\/.*)\.ts$/;

function heavyVerbImports(texts: Sources): string[] {
  return [...texts]
    .filter(([f]) => f.startsWith('commands/'))
    .flatMap(([f, text]) =>
      [...text.matchAll(/^import (?!type )[^;]*?from '(\.{1,2}\/[^']+)';/gm)]
        .map((m) => toSource(f, m[1] as string))
        .filter((to) => !LIGHT.test(to))
        .map((to) => `${f} -> ${to}`),
    );
}

/** app/ports.ts, which verb files import up front, imports only types up front. */
function portsValueImports(texts: Sources): string[] {
  const text = texts.get('app/ports.ts') ?? '';
  return [...text.matchAll(/^import (?!type )[^;]*?from '([^']+)';/gm)].map((m) => `app/ports.ts -> ${m[1]}`);
}

/** A port object built in a verb (`{ http: ..., gate: (plan) => ctx.gate(plan) }`) is a second place to keep in step. */
function verbBuiltPorts(texts: Sources): string[] {
  return [...texts]
    .filter(([f]) => f.startsWith('commands/'))
    .filter(([, text]) =>
      /\b(http|gate)\s*:|ctx\.gate\.bind/.test(
        text
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''")
          .replace(/\/\/.*$/gm, ''),
      ),
    )
    .map(([f]) => f);
}

/** Below main.ts nothing exits, reads argv or writes to the process streams (the sandbox is its own program). */
function processEscapes(texts: Sources): string[] {
  return [...texts]
    .filter(([f]) => f !== 'main.ts' && !f.startsWith('sandbox/'))
    .flatMap(([f, text]) =>
      [...text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').matchAll(/process\.(exit\(|argv|stdout\.|stderr\.)/g)].map(
        (m) => `${f}: process.${m[1]}`,
      ),
    );
}

function untypedVerbFlags(texts: Sources): string[] {
  return [...texts]
    .filter(([f, text]) => f.startsWith('commands/') && text.includes('Record<string, unknown>'))
    .map(([f]) => f);
}

describe('import rules', () => {
  it('every import resolves to a file under src/', () => {
    expect(unresolved(repo().graph)).toEqual([]);
  });

  it('src/lib never imports src/app, src/commands, program.ts or main.ts; src/app never src/commands; src/contract and src/sandbox keep to themselves', () => {
    expect(upwardImports(repo().graph)).toEqual([]);
  });

  it('src/contract imports no package but valibot', () => {
    expect(contractPackages(repo().texts)).toEqual([]);
  });

  it('the response schemas (and the schema library) load only with the first answer: one dynamic import, in lib/http/attempt.ts', () => {
    expect(schemaLoaders(repo().graph, repo().texts)).toEqual(['lib/http/attempt.ts (dynamic)']);
  });

  it('src/ has no import circle, type-only imports included', () => {
    expect(circles(repo().graph, false)).toEqual([]);
  });

  it('verb files load only light modules up front: lib workflows, printers and clients are imported inside run()', () => {
    expect(heavyVerbImports(repo().texts)).toEqual([]);
  });

  it('app/ports.ts, which verb files import up front, imports only types up front: what it builds from is loaded inside', () => {
    expect(portsValueImports(repo().texts)).toEqual([]);
  });

  it("workflows' ports are built in src/app/ports.ts: no verb file hands lib a client or a gate of its own", () => {
    expect(verbBuiltPorts(repo().texts)).toEqual([]);
  });

  it('nothing below main.ts exits, reads argv or writes to the process streams', () => {
    expect(processEscapes(repo().texts)).toEqual([]);
  });

  it('verbs read typed flags: no Record<string, unknown> in src/commands', () => {
    expect(untypedVerbFlags(repo().texts)).toEqual([]);
  });

  it('each check sees its rule broken (a test that cannot fail is a defect)', () => {
    // Planted sources; import paths in single quotes, as the reader wants them.
    const planted = new Map([
      ['lib/store/open.ts', "import { resolveStore } from '../../app/store.js';\nimport { x } from './views.js';"],
      ['lib/cost.ts', "const { main } = await import('../main.js');"],
      ['lib/http/client.ts', "import type { Context } from '../../app/context.js';"],
      ['app/context.ts', "import { search } from '../commands/search.js';"],
      ['contract/prices.ts', "import { formatCredits } from '../lib/words.js';\nimport * as v from 'valibot';"],
      ['contract/handles.ts', "import { z } from 'zod';\nimport { join } from 'node:path';"],
      ['sandbox/state.ts', "import { gate } from '../lib/cost.js';\nimport { PRICES } from '../contract/prices.js';"],
      ['lib/views.ts', "import { a } from './a.js';"],
    ]);
    expect(upwardImports(graphOf(planted))).toEqual([
      'lib/store/open.ts -> app/store.ts',
      'lib/cost.ts -> main.ts',
      'lib/http/client.ts -> app/context.ts',
      'app/context.ts -> commands/search.ts',
      'contract/prices.ts -> lib/words.ts',
      'sandbox/state.ts -> lib/cost.ts',
    ]);
    expect(contractPackages(planted)).toEqual(['contract/handles.ts -> zod', 'contract/handles.ts -> node:path']);
    expect(unresolved(graphOf(planted))).toContain('lib/views.ts -> lib/a.ts');

    const cycle = graphOf(
      new Map([
        ['lib/a.ts', "import type { B } from './b.js';"],
        ['lib/b.ts', "import { a } from './a.js';"],
        ['lib/c.ts', "const c = await import('./c.js');"],
        ['lib/d.ts', "const a = await import('./a.js');\nimport { d } from './d.js';"],
      ]),
    );
    expect(circles(cycle, false)).toEqual([['lib/a.ts', 'lib/b.ts'], ['lib/d.ts']]);
    expect(circles(cycle, true)).toContainEqual(['lib/c.ts']);

    const schemas = new Map([
      ['lib/http/attempt.ts', "const s = await import('../../contract/responses.js');"],
      ['lib/api/plan.ts', "import type { Shape } from '../../contract/responses.js';"],
      ['lib/output/json.ts', "import * as v from 'valibot';"],
    ]);
    expect(schemaLoaders(graphOf(schemas), schemas)).toEqual([
      'lib/http/attempt.ts (dynamic)',
      'lib/api/plan.ts',
      'lib/output/json.ts imports valibot',
    ]);

    const verbs = new Map([
      [
        'commands/search.ts',
        "import { runDiscovery } from '../lib/discovery/run.js';\nimport type { Plan } from '../lib/api/plan.js';\nimport { UsageError } from '../lib/errors.js';\nimport { defineCommand } from '../app/command.js';",
      ],
      ['commands/enrich/handle.ts', "import { openStore } from '../../lib/store/open.js';"],
      ['commands/credits.ts', 'const flags: Record<string, unknown> = {};\nconst p = { http: () => client, gate };'],
      ['commands/events/tail.ts', 'const gate = ctx.gate.bind(ctx); // a comment naming http: is no port'],
      ['commands/config/get.ts', "const label = 'http: the client';"],
      ['app/ports.ts', "import type { Context } from './context.js';\nimport { runBulk } from '../lib/bulk/run.js';"],
      ['app/store.ts', 'if (bad) process.exit(2);\n// process.stdout.write in a comment is no write'],
      ['lib/io/terminal.ts', 'process.stderr.write(text);'],
      ['lib/options.ts', 'const raw = process.argv.slice(2);'],
      ['main.ts', 'process.exit(code);'],
      ['sandbox/cli.ts', 'process.stdout.write(url);'],
    ]);
    expect(heavyVerbImports(verbs)).toEqual([
      'commands/search.ts -> lib/discovery/run.ts',
      'commands/enrich/handle.ts -> lib/store/open.ts',
    ]);
    expect(portsValueImports(verbs)).toEqual(['app/ports.ts -> ../lib/bulk/run.js']);
    expect(verbBuiltPorts(verbs)).toEqual(['commands/credits.ts', 'commands/events/tail.ts']);
    expect(processEscapes(verbs)).toEqual([
      'app/store.ts: process.exit(',
      'lib/io/terminal.ts: process.stderr.',
      'lib/options.ts: process.argv',
    ]);
    expect(untypedVerbFlags(verbs)).toEqual(['commands/credits.ts']);
  });
});

/** The code of a source, comments stripped (strings kept: a flag such as 'wx' is a string). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/**
 * One file lock, lib/io/lock.ts: anywhere else, creating a file exclusively (`'wx'`, `O_EXCL`), a hard link (the
 * other classic lock) or a lock library is a second lock implementation. The one allowance: the atomic writer
 * creates its own uniquely named temporary file exclusively, which locks nothing. The store takes no file lock: its
 * claims and budget reservations are rows (`claims`, `runs`) written only by lib/store/core.ts (checked with the
 * store's other tables below), serialised by the engine's transaction lock, spelt only in the engine's file.
 */
const LOCK_PRIMITIVE =
  /['"](?:wx|wx\+|ax|ax\+)['"]|\bO_EXCL\b|\blinkSync\s*\(|\.link\s*\(|\bflock\b|['"](?:proper-)?lockfile['"]/g;
const NOT_A_LOCK: Record<string, string[]> = { 'lib/io/atomic-file.ts': ["fsp.open(tempPath, 'wx'"] };
/** The store's transaction locks, each in its engine's file (`Dialect.lock`, a write transaction). */
const TRANSACTION_LOCKS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bpg_(?:try_)?advisory(?:_xact)?_lock(?:_shared)?\b/g, 'lib/store/postgres.ts'],
  [/\bBEGIN\s+(?:IMMEDIATE|EXCLUSIVE)\b|\bLOCK\s+TABLE\b|\bFOR\s+UPDATE\b/g, 'lib/store/sqlite.ts'],
];

function lineAt(c: string, index: number): string {
  const end = c.indexOf('\n', index);
  return c.slice(c.lastIndexOf('\n', index) + 1, end === -1 ? undefined : end).trim();
}

function secondLocks(sources: Sources): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    const c = code(text);
    if (f !== 'lib/io/lock.ts') {
      for (const m of c.matchAll(LOCK_PRIMITIVE)) {
        const line = lineAt(c, m.index);
        if (!(NOT_A_LOCK[f] ?? []).some((allowed) => line.includes(allowed))) found.push(`${f}: ${line}`);
      }
    }
    for (const [shape, home] of TRANSACTION_LOCKS) {
      if (f === home) continue;
      for (const m of c.matchAll(shape)) found.push(`${f}: ${lineAt(c, m.index)}`);
    }
  }
  return found;
}

/**
 * One atomic writer, lib/io/atomic-file.ts: a temporary file renamed over its target elsewhere is a second one
 * (without its fsync, its 0600 or its sweep of dead writers' temps). The allowance, with its reason: the lock
 * renews its own holder file with a synchronous temp + rename inside a timer, where the async writer cannot run.
 */
const TEMP_RENAME = /\brename(?:Sync)?\s*\(\s*[\w.]*(?:temp|tmp)\w*\s*,/gi;
const NOT_AN_ATOMIC_WRITER: Record<string, string> = {
  'lib/io/lock.ts': 'the lock renews its holder file synchronously, in a timer (renewLock)',
};

function secondAtomicWriters(sources: Sources): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    if (f === 'lib/io/atomic-file.ts' || f.startsWith('sandbox/') || f in NOT_AN_ATOMIC_WRITER) continue;
    const c = code(text);
    for (const m of c.matchAll(TEMP_RENAME)) found.push(`${f}: ${lineAt(c, m.index)}`);
  }
  return found;
}

/**
 * One sanitiser, lib/io/safe-text.ts: a pattern over a range of control or format characters used to replace them
 * anywhere else is a second one (`\x00-\x1f`, `\u007f-\u009f`, `\p{Cc}`). A pattern that only refuses such text
 * (`.test`, `.exec`) shows nothing and is no sanitiser.
 */
const CONTROL_RANGE = String.raw`\\(?:x|u00)(?:[01][0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])-|\\p\{(?:C[cf]?|Control|Format)\}`;

function secondSanitisers(sources: Sources): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    if (f === 'lib/io/safe-text.ts' || f.startsWith('sandbox/')) continue;
    const c = code(text);
    const named = [
      ...c.matchAll(
        new RegExp(String.raw`\b(?:const|let)\s+(\w+)\s*=\s*(?:/|new RegExp\().*(?:${CONTROL_RANGE})`, 'g'),
      ),
    ].map((m) => m[1] as string);
    const replacing = new RegExp(
      String.raw`\.replace(?:All)?\(\s*(?:/[^\n]*(?:${CONTROL_RANGE})|new RegExp\([^\n]*(?:${CONTROL_RANGE})${named.length > 0 ? String.raw`|(?:${named.join('|')})\b` : ''})`,
      'g',
    );
    for (const m of c.matchAll(replacing)) found.push(`${f}: ${lineAt(c, m.index)}`);
  }
  return found;
}

/** One CSV reader, lib/csv: the parser package read anywhere else in the CLI is a second reader of a user's file. */
function secondCsvReaders(sources: Sources): string[] {
  return [...sources]
    .filter(([f]) => !f.startsWith('lib/csv/') && !f.startsWith('sandbox/'))
    .filter(([, text]) =>
      /(?:\bfrom\s+|\bimport\(\s*)['"](?:csv-parse|papaparse|fast-csv|csv-parser)(?:\/[^'"]*)?['"]/.test(code(text)),
    )
    .map(([f]) => `${f} reads CSV`);
}

/**
 * One pricing engine: worst cases come from the plan builders of lib/api, which alone read the price
 * table's worst-case figures; the sandbox and the spend log read what is charged. A price table, a
 * route-to-price lookup or a cost function anywhere else is a second engine (as `estimateRouteCost`
 * in lib/cost.ts was: it assumed 50 creators a page where the verbs sent 20).
 */
const PRICE_READERS: Array<[names: RegExp, allowed: RegExp, why: string]> = [
  [
    /\b(WORST_CASE_MILLI|PRICES|MODE_PRICE|requestPriceOf)\b/,
    /^(contract\/prices|lib\/api\/.*|sandbox\/.*|lib\/store\/memory)\.ts$/,
    'worst-case prices: the plan builders (the store: what an answer that names no cost was charged)',
  ],
  [
    /\bCHARGED_MILLI\b/,
    /^(contract\/prices|lib\/api\/.*|sandbox\/.*|lib\/listening\/runway)\.ts$/,
    'charged prices: the sandbox, and the daily charge projected from usage',
  ],
];
const COST_FUNCTION =
  /\b(?:function\s+|const\s+)(\w*(?:Cost|Price|cost|price)\w*)\s*(?:=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>|\()/g;
/** A numeric `...Milli`/`...PRICE...` figure, the shape of a price table entry. */
const PRICE_FIGURE = /\b\w*(?:Milli|MILLI|PRICE|Price)\w*\s*[:=]\s*[1-9][\d_]*\b/g;

function secondPricing(sources: Sources): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    const c = code(text);
    for (const [names, allowed] of PRICE_READERS) {
      const m = names.exec(c);
      if (m && !allowed.test(f)) found.push(`${f}: reads ${m[0]}`);
    }
    if (/^(contract|lib\/api|sandbox)\//.test(f)) continue;
    for (const m of c.matchAll(COST_FUNCTION)) found.push(`${f}: defines ${m[1]}`);
    for (const m of c.matchAll(PRICE_FIGURE)) if (!/Ms\b|Millis\b/.test(m[0])) found.push(`${f}: holds ${m[0]}`);
  }
  return found;
}

describe('one of each', () => {
  it("one file lock: exclusive file creation, hard links or a lock library only in lib/io/lock.ts; the store's transaction lock only in its engine's file", () => {
    expect(secondLocks(repo().texts)).toEqual([]);
  });

  it('one atomic writer: a temporary file renamed over its target only in lib/io/atomic-file.ts', () => {
    expect(secondAtomicWriters(repo().texts)).toEqual([]);
  });

  it('one sanitiser: control and format characters replaced only in lib/io/safe-text.ts', () => {
    expect(secondSanitisers(repo().texts)).toEqual([]);
  });

  it('one CSV reader: the parser read only in lib/csv (and by the sandbox, which is the service)', () => {
    expect(secondCsvReaders(repo().texts)).toEqual([]);
  });

  it('the checks see a second atomic writer, sanitiser and CSV reader (a test that cannot fail is a defect)', () => {
    const planted = new Map([
      [
        'lib/events/cursor.ts',
        'writeFileSync(tmp, body, { mode: 0o600 });\nrenameSync(tmp, path);\nawait fsp.rename(this.tempPath, target);',
      ],
      ['lib/store/outbox.ts', 'renameSync(file, mine); // a drainer takes the file: no temp, no writer'],
      ['lib/io/lock.ts', 'renameSync(temp, path);'],
      ['lib/output/table.ts', "const cell = text.replace(/[\\x00-\\x1f\\x7f-\\x9f]/g, '?');"],
      [
        'lib/io/terminal.ts',
        "const CONTROLS = /[\\u0000-\\u001f]/gu;\nconst shown = line.replace(CONTROLS, (c) => escape(c));\nconst f = s.replaceAll(/\\p{Cf}/gu, '');",
      ],
      ['lib/store/location.ts', "if (/[\\u0000-\\u001f\\u007f]/.test(v)) return 'refused';"],
      ['lib/io/width.ts', "const plain = text.replace(/\\x1b\\[[0-9;]*m/g, '');"],
      ['lib/bulk/source.ts', "import { parse } from 'csv-parse/sync';"],
      ['app/ports.ts', "const { parse } = await import('csv-parse');"],
      ['lib/csv/read.ts', "import { parse } from 'csv-parse';"],
      ['sandbox/routes/batch.ts', "import { parse } from 'csv-parse/sync';"],
    ]);
    expect(secondAtomicWriters(planted)).toEqual([
      'lib/events/cursor.ts: renameSync(tmp, path);',
      'lib/events/cursor.ts: await fsp.rename(this.tempPath, target);',
    ]);
    expect(secondSanitisers(planted)).toEqual([
      "lib/output/table.ts: const cell = text.replace(/[\\x00-\\x1f\\x7f-\\x9f]/g, '?');",
      'lib/io/terminal.ts: const shown = line.replace(CONTROLS, (c) => escape(c));',
      "lib/io/terminal.ts: const f = s.replaceAll(/\\p{Cf}/gu, '');",
    ]);
    expect(secondCsvReaders(planted)).toEqual(['lib/bulk/source.ts reads CSV', 'app/ports.ts reads CSV']);
  });

  it('one pricing engine: prices read only by the plan builders (lib/api), the sandbox and the charge readers; no cost function or price table elsewhere', () => {
    expect(secondPricing(repo().texts)).toEqual([]);
  });

  it('the checks see a second lock and a second pricing engine (a test that cannot fail is a defect)', () => {
    // The login refresh's own lock, as it was before lib/io/lock.ts was the one.
    const lock = new Map([
      ['lib/auth/token-store.ts', "import { openSync } from 'node:fs';\nconst fd = openSync(path, 'wx', 0o600);"],
    ]);
    expect(secondLocks(lock)).toEqual(["lib/auth/token-store.ts: const fd = openSync(path, 'wx', 0o600);"]);
    expect(
      secondLocks(
        new Map([['lib/batch/journal.ts', 'const fd = openSync(lockPath, constants.O_CREAT | constants.O_EXCL);']]),
      ),
    ).toHaveLength(1);
    expect(
      secondLocks(new Map([['lib/io/atomic-file.ts', "const lock = await fsp.open(`${target}.lock`, 'wx');"]])),
    ).toHaveLength(1);
    // A lock of the store's own beside its rows, and the engines' transaction locks where they belong.
    expect(
      secondLocks(
        new Map([
          ['lib/store/core.ts', "await t.all('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [name]);"],
          ['lib/store/memory.ts', "this.db.exec('BEGIN EXCLUSIVE');"],
          ['lib/store/budget.ts', "await t.all('SELECT * FROM runs WHERE profile = ? FOR UPDATE', [p]);"],
          ['lib/store/postgres.ts', "await t.all('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [name]);"],
          ['lib/store/sqlite.ts', "this.db.exec('BEGIN IMMEDIATE');"],
        ]),
      ),
    ).toEqual([
      "lib/store/core.ts: await t.all('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [name]);",
      "lib/store/memory.ts: this.db.exec('BEGIN EXCLUSIVE');",
      "lib/store/budget.ts: await t.all('SELECT * FROM runs WHERE profile = ? FOR UPDATE', [p]);",
    ]);
    // The raw request's own pricing, as `creators api` had it.
    const engine = new Map([
      [
        'lib/cost.ts',
        "import { PRICES, WORST_CASE_MILLI } from '../contract/prices.js';\nexport const PRICE_MILLI = WORST_CASE_MILLI;\nexport function estimateRouteCost(method: string) {}",
      ],
      ['lib/discovery/price.ts', 'const DISCOVERY_PRICE_MILLI = 10;\nconst pageCost = (n: number) => n * 10;'],
    ]);
    expect(secondPricing(engine)).toEqual([
      'lib/cost.ts: reads PRICES',
      'lib/cost.ts: defines estimateRouteCost',
      'lib/discovery/price.ts: defines pageCost',
      'lib/discovery/price.ts: holds DISCOVERY_PRICE_MILLI = 10',
    ]);
  });
});

/**
 * One store core: the store's tables are read and written only by lib/store/core.ts, over a dialect; its DDL is
 * lib/store/schema.ts. SQL on them anywhere else (an engine file, a view, a command) is a money rule written twice.
 */
const STORE_TABLE_SQL = /\b(?:FROM|INTO|UPDATE|JOIN)\s+(?:answers|spend|claims|runs|pace|bought_creators|meta)\b/gi;
const STORE_SQL_HOMES = new Set(['lib/store/core.ts', 'lib/store/schema.ts']);

function secondStoreCores(sources: Sources): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    if (STORE_SQL_HOMES.has(f)) continue;
    for (const m of code(text).matchAll(STORE_TABLE_SQL)) found.push(`${f}: ${m[0]}`);
  }
  return found;
}

/** One liveness rule: whether a holder lives is asked of lib/io/process-alive.ts, by the lock, the temp files and the store's core only. */
const LIVENESS_ASKERS = new Set([
  'lib/io/lock.ts',
  'lib/io/atomic-file.ts',
  'lib/store/core.ts',
  'lib/io/process-alive.ts',
]);

function secondLiveness(sources: Sources): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    if (LIVENESS_ASKERS.has(f)) continue;
    const c = code(text);
    if (/\bprocessAlive\s*\(|process\.kill\s*\([^,)]+,\s*0\s*\)/.test(c)) found.push(`${f}: tests a holder's liveness`);
  }
  return found;
}

describe('one store core', () => {
  it("the store's tables are read and written only in lib/store/core.ts (the engines hold connections, migrations and errors)", () => {
    expect(secondStoreCores(repo().texts)).toEqual([]);
  });

  it('one liveness rule: only the file lock, the temp files and the store core ask whether a process lives', () => {
    expect(secondLiveness(repo().texts)).toEqual([]);
  });

  it('the checks see SQL on the store in an engine file and a second liveness test (a test that cannot fail is a defect)', () => {
    expect(
      secondStoreCores(
        new Map([
          [
            'lib/store/postgres.ts',
            "await c.query('INSERT INTO claims (key, run) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING');",
          ],
        ]),
      ),
    ).toEqual(['lib/store/postgres.ts: INTO claims']);
    expect(
      secondStoreCores(
        new Map([
          ['lib/store/sqlite.ts', "this.q('SELECT COALESCE(SUM(credits_milli), 0) AS s FROM spend WHERE run = ?')"],
        ]),
      ),
    ).toEqual(['lib/store/sqlite.ts: FROM spend']);
    // A claim or a budget reservation is a row: taken or released outside the core, it is a second lock.
    expect(
      secondStoreCores(
        new Map([
          ['lib/store/memory.ts', "await d.batch([['DELETE FROM claims WHERE key = ?', [key]]]);"],
          ['lib/store/budget.ts', "await t.run('UPDATE runs SET reserved_milli = ? WHERE run = ?', [m, run]);"],
        ]),
      ),
    ).toEqual(['lib/store/memory.ts: FROM claims', 'lib/store/budget.ts: UPDATE runs']);
    expect(
      secondLiveness(
        new Map([['lib/store/sqlite.ts', 'const dead = other.host === holder.host && !processAlive(other.pid);']]),
      ),
    ).toHaveLength(1);
    expect(
      secondLiveness(new Map([['lib/store/postgres.ts', 'try { process.kill(pid, 0); } catch { dead = true; }']])),
    ).toHaveLength(1);
  });
});

/**
 * A module is reached by its own path: `export ... from` outside a folder's index.ts gives a name a second home
 * (one more import to re-point when it moves, and a second way in for the architecture checks to miss).
 */
const RE_EXPORT = /^\s*export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\s*['"][^'"]+['"]/gm;

function reExports(sources: Sources): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    if (f.endsWith('/index.ts') || f === 'index.ts') continue;
    for (const m of code(text).matchAll(RE_EXPORT)) found.push(`${f}: ${m[0].trim().replace(/\s+/g, ' ')}`);
  }
  return found;
}

/**
 * The service's limits live only in contract/limits.ts, where the CLI and the sandbox both read them: a numeric
 * constant named as a limit (`..._LIMIT`, `...PAGE_SIZE`, `MAX_...EMAILS|HANDLES|CREATORS|ENTRIES|ROWS`) anywhere
 * else is a second copy that can drift.
 */
const LIMIT_LITERAL =
  /\b(?:const|let)\s+([A-Z][A-Z0-9_]*(?:_LIMIT|PAGE_SIZE)|MAX_[A-Z0-9_]*(?:EMAILS|HANDLES|CREATORS|ENTRIES|ROWS))\s*=\s*[\d(]/g;

/**
 * The service's shared 10,000 (results, excluded handles, entries a request, listening creators) written as a bare
 * number outside limits.ts is a copy too; the sandbox is the service. Ten seconds and the client's own bounds are
 * not the service's: allowed by line, with the reason.
 */
const TEN_THOUSAND = /\b10_?000\b(?![_\d])/g;
const NOT_A_LIMIT: ReadonlyArray<readonly [RegExp, string]> = [
  [/timeout|Timeout|_MS\b|Ms\b/, 'a time in milliseconds'],
  [/\bRECENT_IDS = |new RecentSet\b/, 'what a run remembers to drop repeats'],
  [/\* 10_?000\) \/ 100\b/, 'a percentage to two decimals'],
  [/\bSEPARATED_FROM = /, 'where a table starts grouping digits'],
];

function strayLimits(sources: Sources): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    if (f === 'contract/limits.ts') continue;
    const c = code(text);
    for (const m of c.matchAll(LIMIT_LITERAL)) found.push(`${f}: ${m[1]}`);
    if (f.startsWith('sandbox/')) continue;
    const bare = c.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
    for (const m of bare.matchAll(TEN_THOUSAND)) {
      const line = lineAt(bare, m.index);
      if (!NOT_A_LIMIT.some(([allowed]) => allowed.test(line))) found.push(`${f}: ${line}`);
    }
  }
  return found;
}

describe('one home for each name and limit', () => {
  it('no re-export outside index.ts files: importers name the module that defines the name', () => {
    expect(reExports(repo().texts)).toEqual([]);
  });

  it('the service limits are declared only in contract/limits.ts', () => {
    expect(strayLimits(repo().texts)).toEqual([]);
  });

  it('the checks see a re-export and a limit declared elsewhere (a test that cannot fail is a defect)', () => {
    expect(
      reExports(
        new Map([
          // Double quotes, so test/tiers.test.ts does not follow these planted paths as this file's imports.
          [
            'sandbox/handles.ts',
            '/** Lives in contract. */\nexport { normalizeHandle } from "../contract/handles.js";',
          ],
          [
            'lib/http/client.ts',
            'export type { HttpResponse, Method } from "./types.js";\nexport * from "./types.js";',
          ],
          ['lib/output/index.ts', 'export { openSink } from "./sink.js";'],
        ]),
      ),
    ).toEqual([
      'sandbox/handles.ts: export { normalizeHandle } from "../contract/handles.js"',
      'lib/http/client.ts: export type { HttpResponse, Method } from "./types.js"',
      'lib/http/client.ts: export * from "./types.js"',
    ]);
    expect(
      strayLimits(
        new Map([
          ['sandbox/listening/subscriptions.ts', 'export const CREATOR_LIMIT = 10_000;'],
          ['sandbox/routes/batch.ts', 'const MAX_LEGACY_EMAILS = 10_000;'],
          ['commands/events/tail.ts', 'const TAIL_PAGE_SIZE = 100;'],
          ['contract/limits.ts', 'export const EVENTS_PAGE_SIZE = { default: 10, max: 100 } as const;'],
          // The MCP tool's bound on handles, as it was written.
          ['app/mcp/tools.ts', "input: { list: z.string(), handles: HANDLES('handles', 10_000) },"],
          ['lib/discovery/run.ts', "if (wanted > 10000) throw new UsageError('at most 10000 results');"],
          ['lib/http/dispatcher.ts', 'const keepAlive = { keepAliveTimeout: 10_000 };'],
          ['sandbox/data/creators.ts', 'if (followers >= 10_000) return 0.03;'],
        ]),
      ),
    ).toEqual([
      'sandbox/listening/subscriptions.ts: CREATOR_LIMIT',
      'sandbox/routes/batch.ts: MAX_LEGACY_EMAILS',
      'commands/events/tail.ts: TAIL_PAGE_SIZE',
      "app/mcp/tools.ts: input: { list: z.string(), handles: HANDLES('', 10_000) },",
      "lib/discovery/run.ts: if (wanted > 10000) throw new UsageError('');",
    ]);
  });
});

/**
 * One retry policy: lib/retry-policy.ts computes every back-off in lib (its waits, attempts, deadline and a
 * server's wait). Elsewhere in lib, a wait that grows (`**`, `Math.pow`, `*=` on a wait), a list of waits walked
 * by a loop, or a function or constant named for a back-off is a second policy with delays of its own (as the
 * event forward, the tail, the team store's reconnect and the HTTP core each had).
 */
const BACKOFF_SHAPES: Array<[RegExp, string]> = [
  [/[\w)\]]\s*\*\*\s*[\w(]|\bMath\.pow\s*\(/g, 'an exponential wait'],
  [/\b\w*(?:wait|delay|backoff|sleep)\w*\s*\*=/gi, 'a wait multiplied in a loop'],
  [/\bfor\s*\(\s*(?:const|let)\s+\w+\s+of\s+\[\s*\d[\d_]*\s*,/g, 'a list of waits'],
  [
    /\b(?:function\s+|(?:const|let)\s+)(\w*(?:[Bb]ackoff|BACKOFF|[Rr]etryDelay|RETRY_DELAY)\w*)\s*(?:[=(:])/g,
    'a back-off of its own',
  ],
];

function secondRetryPolicies(sources: Sources): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    if (!f.startsWith('lib/') || f === 'lib/retry-policy.ts') continue;
    const c = code(text);
    for (const [shape, what] of BACKOFF_SHAPES) {
      for (const m of c.matchAll(shape)) {
        const line = c.slice(
          c.lastIndexOf('\n', m.index) + 1,
          c.indexOf('\n', m.index) === -1 ? undefined : c.indexOf('\n', m.index),
        );
        found.push(`${f}: ${what}: ${line.trim()}`);
      }
    }
  }
  return found;
}

describe('one retry policy', () => {
  it('back-off waits are computed only in lib/retry-policy.ts', () => {
    expect(secondRetryPolicies(repo().texts)).toEqual([]);
  });

  it('the check sees a back-off of its own (a test that cannot fail is a defect)', () => {
    // Each as the loops had them before the one policy.
    const planted = new Map([
      [
        'lib/events/forward.ts',
        'const wait = Math.min(30_000, (opts.backoffMs ?? 1_000) * 2 ** (attempt - 1));\nawait deps.sleep(wait, deps.signal);',
      ],
      ['lib/events/tail.ts', 'const backoff = (): number => Math.min(MAX_BACKOFF_MS, 2_000 * Math.pow(2, failures));'],
      [
        'lib/store/postgres.ts',
        'for (const wait of [100, 300, 600]) {\n  await new Promise((resolve) => setTimeout(resolve, wait));\n}',
      ],
      ['lib/batch/poll.ts', 'let delayMs = 1_000;\nfor (;;) { await o.sleep(delayMs); delayMs *= 2; }'],
      ['lib/retry-policy.ts', 'const full = Math.min(policy.capMs, policy.baseMs * policy.factor ** (attempt - 1));'],
      ['commands/events/tail.ts', 'const wait = 1000 * 2 ** n;'],
    ]);
    expect(secondRetryPolicies(planted)).toEqual([
      'lib/events/forward.ts: an exponential wait: const wait = Math.min(30_000, (opts.backoffMs ?? 1_000) * 2 ** (attempt - 1));',
      'lib/events/tail.ts: an exponential wait: const backoff = (): number => Math.min(MAX_BACKOFF_MS, 2_000 * Math.pow(2, failures));',
      'lib/events/tail.ts: a back-off of its own: const backoff = (): number => Math.min(MAX_BACKOFF_MS, 2_000 * Math.pow(2, failures));',
      'lib/store/postgres.ts: a list of waits: for (const wait of [100, 300, 600]) {',
      'lib/batch/poll.ts: a wait multiplied in a loop: for (;;) { await o.sleep(delayMs); delayMs *= 2; }',
    ]);
  });
});
