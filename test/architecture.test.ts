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
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

interface Edge {
  to: string;
  dynamic: boolean;
}

/** Every relative import of a file (static, type-only, re-export, dynamic), as paths under src/ ending in .ts. */
function imports(file: string): Edge[] {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const edges: Edge[] = [];
  for (const m of text.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?'(\.{1,2}\/[^']+)'/g)) {
    edges.push({ to: toSource(file, m[1] as string), dynamic: false });
  }
  for (const m of text.matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) edges.push({ to: toSource(file, m[1] as string), dynamic: true });
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
    const missing = files.flatMap((f) => (graph.get(f) ?? []).filter((e) => !e.to.startsWith('..') && !graph.has(e.to)).map((e) => `${f} -> ${e.to}`));
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
    const importers = files.flatMap((f) => (graph.get(f) ?? []).filter((e) => e.to === 'contract/responses.ts').map((e) => `${f}${e.dynamic ? ' (dynamic)' : ''}`));
    expect([...new Set(importers)]).toEqual(['lib/http/attempt.ts (dynamic)']);
    // Nothing else reaches the package itself.
    const direct = files.filter((f) => f !== 'contract/responses.ts' && /from 'valibot'|import\('valibot'\)/.test(readFileSync(join(src, f), 'utf8')));
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
        return [...text.matchAll(/^import (?!type )[^;]*?from '(\.{1,2}\/[^']+)';/gm)].map((m) => toSource(join(src, f), m[1] as string)).filter((to) => !light.test(to)).map((to) => `${f} -> ${to}`);
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
      .filter((f) => /\b(http|gate)\s*:|ctx\.gate\.bind/.test(readFileSync(join(src, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/'[^'\n]*'|`[^`]*`/g, "''").replace(/\/\/.*$/gm, '')));
    expect(built).toEqual([]);
  });

  it('nothing below main.ts exits, reads argv or writes to the process streams', () => {
    const offenders = files
      .filter((f) => f !== 'main.ts' && !f.startsWith('sandbox/'))
      .filter((f) => /process\.(exit\(|argv|stdout\.|stderr\.)/.test(readFileSync(join(src, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    expect(offenders).toEqual([]);
  });

  it('verbs read typed flags: no Record<string, unknown> in src/commands', () => {
    const untyped = files.filter((f) => f.startsWith('commands/') && readFileSync(join(src, f), 'utf8').includes('Record<string, unknown>'));
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
