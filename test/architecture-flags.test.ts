/**
 * "lib never names a flag" (issue 30): the command line is read in src/program.ts, src/app and src/commands, so
 * text in src/lib that spells `--word` means a flag is checked in the wrong layer, or lib knows how the user typed
 * what it was given. Every text lib writes for people counts: an error's message and hint, a notice, a warning, a
 * plan's description, a prompt. Checked on the source with the TypeScript parser: every string piece in src/lib
 * (comments and module paths aside). Where lib must name what the user gave, or say back which flag shaped what it
 * did (a quote's basis, a stop after --max-rows), the caller hands it the words (`named: '--exclude-handles'`,
 * `BulkNames`, `CsvNames`, a budget's `named: '--max-credits'`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** A module path (`import ... from '...'`, `import('...')`) is no text for people. */
function isModulePath(node: ts.Node): boolean {
  const p = node.parent;
  return (
    ts.isImportDeclaration(p) ||
    ts.isExportDeclaration(p) ||
    ts.isExternalModuleReference(p) ||
    (ts.isCallExpression(p) && p.expression.kind === ts.SyntaxKind.ImportKeyword) ||
    (ts.isLiteralTypeNode(p) && ts.isImportTypeNode(p.parent))
  );
}

/** `file: --flag` for each flag spelt in a string of a source (each string piece of a template on its own). */
function flagsNamed(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (
        (ts.isStringLiteralLike(node) ||
          ts.isTemplateHead(node) ||
          ts.isTemplateMiddle(node) ||
          ts.isTemplateTail(node)) &&
        !isModulePath(node)
      ) {
        for (const m of node.text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)) found.push(`${file}: ${m[0]}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...new Set(found)];
}

/**
 * Recovery hints: what lib meets only while it runs (the service's answer, the content of a file the user gave, the
 * store, the network, a budget), told with the flag that gets past it or bounds it next time. The verb cannot know
 * in advance, and the flag is the useful part of the line. Anything else is not allowed here: a check of what the
 * command line holds moves to where it is read (a value kind, the verb, its flag module in src/commands).
 */
const RECOVERY_HINTS = new Set([
  // Errors: the key, consent, browser or port the run turned out to need.
  'lib/errors.ts: --api-key',
  'lib/http/decode-error.ts: --api-key',
  'lib/io/prompt.ts: --yes',
  'lib/auth/login.ts: --no-browser',
  'lib/auth/callback-server.ts: --port',
  // Errors: the cost bounds, priced once the plan is built (exit 5).
  'lib/cost.ts: --max-credits',
  'lib/store/budget.ts: --max-credits',
  'lib/store/budget.ts: --max-results',
  'lib/store/budget.ts: --max-pages',
  'lib/store/budget.ts: --max-rows',
  'lib/store/memory.ts: --max-age',
  // Errors: what the filters, the exclusions or the service's answer turned out to hold.
  'lib/listening/creators.ts: --platform',
  'lib/discovery/exclusions.ts: --platform',
  'lib/discovery/exclusions.ts: --exclude-list',
  'lib/discovery/exclusions.ts: --file',
  'lib/events/pages.ts: --page',
  'lib/events/pages.ts: --all',
  'lib/discovery/filters.ts: --unchecked-filters',
  'lib/discovery/filters.ts: --platform',
  'lib/discovery/filters.ts: --min-followers',
  'lib/discovery/filters.ts: --max-followers',
  'lib/discovery/filters.ts: --exclude-handles',
  'lib/discovery/filters.ts: --exclude-list',
  'lib/discovery/filters.ts: --exclude-default-list',
  'lib/discovery/filters.ts: --exclude-all-lists',
  'lib/http/attempt.ts: --debug',
  'lib/http/attempt.ts: --base-url',
  'lib/http/attempt.ts: --limit',
  'lib/http/network-error.ts: --base-url',
  // Errors: the team store's role turned out to lack a right a purchase needs (found when the store is opened).
  'lib/store/pg-grants.ts: --print-grants',
  'lib/store/pg-grants.ts: --role',
  'lib/store/pg-grants.ts: --no-store',
  'lib/store/errors.ts: --no-store',
  // Notices and warnings: the store answered (to buy fresh), the quote of a raw request that pages (to bound it).
  'lib/store/open.ts: --max-age',
  'lib/api/raw-plan.ts: --max-pages',
  // Notices: what a view left out (columns the width dropped, fields past the sample, the full record), a pager
  // that would not start.
  'lib/output/terminal-printers.ts: --fields',
  'lib/output/delimited-printers.ts: --fields',
  'lib/output/delimited-printers.ts: --format',
  'lib/output/card.ts: --json',
  'lib/output/card.ts: --format',
  'lib/listening/overview.ts: --json',
  'lib/output/pager.ts: --no-pager',
]);

/** Spelt like a flag, not one of ours. */
const NOT_OUR_FLAGS = new Set([
  "lib/http/undici-core.ts: --liftoff-only (V8's, set for the undici core)",
  "lib/io/heap.ts: --semi-space-growth-factor (V8's, set for a long run's heap)",
  "lib/io/heap.ts: --heap-growing-percent (V8's, set for a long run's heap)",
]);
const allowed = (v: string): boolean => RECOVERY_HINTS.has(v) || [...NOT_OUR_FLAGS].some((n) => n.startsWith(`${v} (`));

let libFlags: string[] | undefined;
/** The flags src/lib names, read once for the tests below. */
function libNamed(): string[] {
  libFlags ??= flagsNamed(new Map(sources(join(src, 'lib')).map((f) => [relative(src, f), readFileSync(f, 'utf8')])));
  return libFlags;
}

describe('lib never names a flag', () => {
  it('no text in src/lib (errors, notices, warnings, quotes) spells a flag, but for the recovery hints listed here', () => {
    expect(libNamed().filter((v) => !allowed(v))).toEqual([]);
  });

  it('every allowed entry is still needed (a stale entry would let a new one in unseen)', () => {
    const named = new Set(libNamed());
    const listed = [...RECOVERY_HINTS, ...[...NOT_OUR_FLAGS].map((n) => n.replace(/ \(.*$/, ''))];
    expect(listed.filter((v) => !named.has(v))).toEqual([]);
  });

  it('the check sees a flag in an error, a template, a hint, a notice and a quote (a test that cannot fail is a defect)', () => {
    const planted = new Map([
      [
        'lib/discovery/sort.ts',
        "throw new UsageError('--order needs --sort.', { hint: 'e.g. --sort engagement_rate' });",
      ],
      [
        'lib/auth/api-keys.ts',
        "throw new UsageError(`Invalid --expires-at '${text}'.`);\nconst note = '--not-an-error';",
      ],
      ['lib/x.ts', "throw new CliError('usage', `no ${'--'}x here`, { hint: 'a-b--c is not a flag' });"],
      // Notices and warnings count as much as errors: each is text lib writes for people.
      ['lib/events/tail.ts', "deps.notice?.(`--cursor-reset: the cursor file '${file}' starts over here.`);"],
      ['lib/output/sink.ts', 'term.warn(`cannot write ${path}; use --output-dir`);'],
      ['lib/api/plan.ts', 'const costBasis = `${n} pages (--max-pages)`;'],
      // Module paths are not text.
      ['lib/y.ts', "import x from '--not-text';\nconst m = await import('--nor-this');"],
    ]);
    expect(flagsNamed(planted)).toEqual([
      'lib/discovery/sort.ts: --order',
      'lib/discovery/sort.ts: --sort',
      'lib/auth/api-keys.ts: --expires-at',
      'lib/auth/api-keys.ts: --not-an-error',
      'lib/events/tail.ts: --cursor-reset',
      'lib/output/sink.ts: --output-dir',
      'lib/api/plan.ts: --max-pages',
    ]);
    // A flag the lists above allow in one file is refused in another, and none of these is allowed.
    expect(allowed('lib/events/pages.ts: --page')).toBe(true);
    expect(allowed('lib/events/tail.ts: --page')).toBe(false);
    expect(allowed('lib/discovery/sort.ts: --order')).toBe(false);
    expect(allowed('lib/http/undici-core.ts: --liftoff-only')).toBe(true);
  });
});
