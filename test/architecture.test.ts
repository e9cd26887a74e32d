/**
 * The house rules of ARCHITECTURE.md ("what may import what"), checked on the source: a layer that
 * reaches upwards, or an import circle anywhere in src/ (type-only imports included), fails here.
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

interface Edge {
  to: string;
  dynamic: boolean;
}

/** Every relative import of a file (static, type-only, re-export, dynamic), as paths under src/ ending in .ts. */
function imports(file: string): Edge[] {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const edges: Edge[] = [];
  for (const m of text.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?'(\.{1,2}\/[^']+)'/g)) {
    edges.push({ to: toSource(file, m[1] as string), dynamic: false });
  }
  for (const m of text.matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g))
    edges.push({ to: toSource(file, m[1] as string), dynamic: true });
  return edges;
}

function toSource(file: string, spec: string): string {
  return relative(src, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
}

const files = sources(src).map((f) => relative(src, f));
const graph = new Map(files.map((f) => [f, imports(join(src, f))]));

function violations(from: RegExp, allowed: RegExp): string[] {
  return files
    .filter((f) => from.test(f))
    .flatMap((f) => (graph.get(f) ?? []).filter((e) => !allowed.test(e.to)).map((e) => `${f} -> ${e.to}`));
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function circles(useDynamic: boolean): string[][] {
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
      const selfLoop = (graph.get(v) ?? []).some((e) => e.to === v);
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return found;
}

describe('import rules', () => {
  it('every import resolves to a file under src/', () => {
    const missing = files.flatMap((f) =>
      (graph.get(f) ?? []).filter((e) => !e.to.startsWith('..') && !graph.has(e.to)).map((e) => `${f} -> ${e.to}`),
    );
    expect(missing).toEqual([]);
  });

  it('src/lib never imports src/app, src/commands, program.ts or main.ts', () => {
    expect(violations(/^lib\//, /^(lib|contract)\//)).toEqual([]);
  });

  it('src/contract imports nothing outside itself', () => {
    expect(violations(/^contract\//, /^contract\//)).toEqual([]);
  });

  it('src/sandbox imports only itself and src/contract', () => {
    expect(violations(/^sandbox\//, /^(sandbox|contract)\//)).toEqual([]);
  });

  it('src/app never imports src/commands (the tree is assembled by program.ts)', () => {
    expect(violations(/^app\//, /^(app|lib|contract)\//)).toEqual([]);
  });

  it('the response schemas (and the schema library) load only with the first answer: one dynamic import, in lib/http/attempt.ts', () => {
    const importers = files.flatMap((f) =>
      (graph.get(f) ?? [])
        .filter((e) => e.to === 'contract/responses.ts')
        .map((e) => `${f}${e.dynamic ? ' (dynamic)' : ''}`),
    );
    expect([...new Set(importers)]).toEqual(['lib/http/attempt.ts (dynamic)']);
    // Nothing else reaches the package itself.
    const direct = files.filter(
      (f) =>
        f !== 'contract/responses.ts' && /from 'valibot'|import\('valibot'\)/.test(readFileSync(join(src, f), 'utf8')),
    );
    expect(direct).toEqual([]);
  });

  it('src/ has no import circle, type-only imports included', () => {
    expect(circles(false)).toEqual([]);
  });

  it('verb files load only light modules up front: lib workflows, printers and clients are imported inside run()', () => {
    // The whole command tree is imported at start-up; anything heavy here is paid by every command.
    const light = /^(app\/(command|ports)|lib\/(errors|options|ids|platforms)|contract\/.*|commands\/.*)\.ts$/;
    const heavy = files
      .filter((f) => f.startsWith('commands/'))
      .flatMap((f) => {
        const text = readFileSync(join(src, f), 'utf8');
        return [...text.matchAll(/^import (?!type )[^;]*?from '(\.{1,2}\/[^']+)';/gm)]
          .map((m) => toSource(join(src, f), m[1] as string))
          .filter((to) => !light.test(to))
          .map((to) => `${f} -> ${to}`);
      });
    expect(heavy).toEqual([]);
  });

  it('app/ports.ts, which verb files import up front, imports only types up front: what it builds from is loaded inside', () => {
    const text = readFileSync(join(src, 'app/ports.ts'), 'utf8');
    const valueImports = [...text.matchAll(/^import (?!type )[^;]*?from '([^']+)';/gm)].map((m) => m[1]);
    expect(valueImports).toEqual([]);
  });

  it("workflows' ports are built in src/app/ports.ts: no verb file hands lib a client or a gate of its own", () => {
    // A port object built in a verb (`{ http: ..., gate: (plan) => ctx.gate(plan) }`) is a second place to keep in step.
    const built = files
      .filter((f) => f.startsWith('commands/'))
      .filter((f) =>
        /\b(http|gate)\s*:|ctx\.gate\.bind/.test(
          readFileSync(join(src, f), 'utf8')
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''")
            .replace(/\/\/.*$/gm, ''),
        ),
      );
    expect(built).toEqual([]);
  });

  it('nothing below main.ts exits, reads argv or writes to the process streams', () => {
    const offenders = files
      .filter((f) => f !== 'main.ts' && !f.startsWith('sandbox/'))
      .filter((f) =>
        /process\.(exit\(|argv|stdout\.|stderr\.)/.test(
          readFileSync(join(src, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''),
        ),
      );
    expect(offenders).toEqual([]);
  });

  it('verbs read typed flags: no Record<string, unknown> in src/commands', () => {
    const untyped = files.filter(
      (f) => f.startsWith('commands/') && readFileSync(join(src, f), 'utf8').includes('Record<string, unknown>'),
    );
    expect(untyped).toEqual([]);
  });

  it('the checker sees circles (a test that cannot fail is a defect)', () => {
    graph.set('zz/a.ts', [{ to: 'zz/b.ts', dynamic: false }]);
    graph.set('zz/b.ts', [{ to: 'zz/a.ts', dynamic: false }]);
    files.push('zz/a.ts', 'zz/b.ts');
    try {
      expect(circles(false)).toContainEqual(['zz/a.ts', 'zz/b.ts']);
    } finally {
      graph.delete('zz/a.ts');
      graph.delete('zz/b.ts');
      files.splice(files.indexOf('zz/a.ts'), 2);
    }
  });
});

/** The code of a source, comments stripped (strings kept: a flag such as 'wx' is a string). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const texts = (): Map<string, string> =>
  new Map(files.filter((f) => !f.startsWith('zz/')).map((f) => [f, readFileSync(join(src, f), 'utf8')]));

/**
 * The one lock is lib/io/lock.ts: anywhere else, creating a file exclusively (`'wx'`, `O_EXCL`), a hard
 * link (the other classic lock) or a lock library is a second lock implementation. The one allowance:
 * the atomic writer creates its own uniquely named temporary file exclusively, which locks nothing.
 */
const LOCK_PRIMITIVE =
  /['"](?:wx|wx\+|ax|ax\+)['"]|\bO_EXCL\b|\blinkSync\s*\(|\.link\s*\(|\bflock\b|['"](?:proper-)?lockfile['"]/g;
const NOT_A_LOCK: Record<string, string[]> = { 'lib/io/atomic-file.ts': ["fsp.open(tempPath, 'wx'"] };

function secondLocks(sources: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    if (f === 'lib/io/lock.ts') continue;
    const c = code(text);
    for (const m of c.matchAll(LOCK_PRIMITIVE)) {
      const line = c.slice(
        c.lastIndexOf('\n', m.index) + 1,
        c.indexOf('\n', m.index) === -1 ? undefined : c.indexOf('\n', m.index),
      );
      if (!(NOT_A_LOCK[f] ?? []).some((allowed) => line.includes(allowed))) found.push(`${f}: ${line.trim()}`);
    }
  }
  return found;
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

function secondPricing(sources: Map<string, string>): string[] {
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
  it('one lock: exclusive file creation, hard links or a lock library only in lib/io/lock.ts', () => {
    expect(secondLocks(texts())).toEqual([]);
  });

  it('one pricing engine: prices read only by the plan builders (lib/api), the sandbox and the charge readers; no cost function or price table elsewhere', () => {
    expect(secondPricing(texts())).toEqual([]);
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

function secondStoreCores(sources: Map<string, string>): string[] {
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

function secondLiveness(sources: Map<string, string>): string[] {
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
    expect(secondStoreCores(texts())).toEqual([]);
  });

  it('one liveness rule: only the file lock, the temp files and the store core ask whether a process lives', () => {
    expect(secondLiveness(texts())).toEqual([]);
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

function reExports(sources: Map<string, string>): string[] {
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

function strayLimits(sources: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [f, text] of sources) {
    if (f === 'contract/limits.ts') continue;
    for (const m of code(text).matchAll(LIMIT_LITERAL)) found.push(`${f}: ${m[1]}`);
  }
  return found;
}

describe('one home for each name and limit', () => {
  it('no re-export outside index.ts files: importers name the module that defines the name', () => {
    expect(reExports(texts())).toEqual([]);
  });

  it('the service limits are declared only in contract/limits.ts', () => {
    expect(strayLimits(texts())).toEqual([]);
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
        ]),
      ),
    ).toEqual([
      'sandbox/listening/subscriptions.ts: CREATOR_LIMIT',
      'sandbox/routes/batch.ts: MAX_LEGACY_EMAILS',
      'commands/events/tail.ts: TAIL_PAGE_SIZE',
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

function secondRetryPolicies(sources: Map<string, string>): string[] {
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
    expect(secondRetryPolicies(texts())).toEqual([]);
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
