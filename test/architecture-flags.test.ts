/**
 * "lib never names a flag" (issue 30): the command line is read in src/program.ts, src/app and src/commands, so
 * a message or hint of an error thrown in src/lib that spells `--word` means a flag is checked in the wrong
 * layer (or lib knows how the user typed what it was given). Checked on the source with the TypeScript parser:
 * every string piece inside the arguments of a `new …Error(…)` in src/lib.
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

/** `file: --flag` for each flag spelt in an error's message or hint (its arguments' string pieces). */
function flagsNamed(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && /Error$/.test(node.expression.getText(source))) {
        const pieces: string[] = [];
        const grab = (n: ts.Node): void => {
          if (ts.isStringLiteralLike(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n))
            pieces.push(n.text);
          ts.forEachChild(n, grab);
        };
        for (const arg of node.arguments ?? []) grab(arg);
        for (const m of pieces.join('\u0000').matchAll(/(?<![\w-])--[a-z][a-z-]*/g)) found.push(`${file}: ${m[0]}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...new Set(found)];
}

/**
 * Errors lib learns of only while it runs, whose hint tells the user which flag (mostly a global one) gets past
 * them: the verb cannot know in advance, and the hint is the useful part of the message. Anything else is not
 * allowed here: move the check to where the command line is read (a value kind, the verb, src/commands).
 */
const RECOVERY_HINTS = new Set([
  // The key, base URL or consent the run turned out to need (exit 3 / 2 found while sending).
  'lib/errors.ts: --api-key',
  'lib/http/decode-error.ts: --api-key',
  'lib/http/url.ts: --base-url',
  'lib/io/prompt.ts: --yes',
  'lib/auth/login.ts: --no-browser',
  'lib/auth/callback-server.ts: --port',
  // The cost bounds, priced once the plan is built (exit 4).
  'lib/cost.ts: --max-credits',
  'lib/store/budget.ts: --max-credits',
  'lib/store/budget.ts: --max-results',
  'lib/store/budget.ts: --max-pages',
  'lib/store/budget.ts: --max-rows',
  'lib/store/memory.ts: --max-age',
  'lib/batch/run.ts: --force',
  // What the input file or the service's answer turned out to hold.
  'lib/csv/detect.ts: --column',
  'lib/csv/detect.ts: --mode',
  'lib/listening/creators.ts: --platform',
  'lib/api/dictionary.ts: --platform',
  'lib/discovery/exclusions.ts: --platform',
  'lib/events/pages.ts: --page',
  'lib/events/pages.ts: --all',
  'lib/events/filters.ts: --unchecked-filters',
  'lib/discovery/filters.ts: --unchecked-filters',
  'lib/discovery/filters.ts: --min-followers',
  'lib/discovery/filters.ts: --max-followers',
  'lib/discovery/filters.ts: --exclude-handles',
  'lib/discovery/filters.ts: --exclude-list',
  'lib/discovery/filters.ts: --exclude-default-list',
  'lib/discovery/filters.ts: --exclude-all-lists',
  'lib/discovery/exclusions.ts: --exclude-list',
  'lib/discovery/exclusions.ts: --file',
  'lib/batch/download.ts: --format',
  'lib/batch/download.ts: --json',
  // The team store's role turned out to lack a right a purchase needs (found when the store is opened).
  'lib/store/pg-grants.ts: --print-grants',
  'lib/store/pg-grants.ts: --role',
  'lib/store/pg-grants.ts: --no-store',
]);

let libFlags: string[] | undefined;
/** The flags src/lib names, read once for the tests below. */
function libNamed(): string[] {
  libFlags ??= flagsNamed(new Map(sources(join(src, 'lib')).map((f) => [relative(src, f), readFileSync(f, 'utf8')])));
  return libFlags;
}

describe('lib never names a flag', () => {
  it('no error thrown in src/lib spells a flag, but for the recovery hints listed here', () => {
    const named = libNamed().filter((v) => !RECOVERY_HINTS.has(v));
    expect(named).toEqual([]);
  });

  it('every allowed entry is still needed (a stale entry would let a new one in unseen)', () => {
    const named = new Set(libNamed());
    expect([...RECOVERY_HINTS].filter((v) => !named.has(v))).toEqual([]);
  });

  it('the check sees a flag in a message, a template and a hint (a test that cannot fail is a defect)', () => {
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
    ]);
    expect(flagsNamed(planted)).toEqual([
      'lib/discovery/sort.ts: --order',
      'lib/discovery/sort.ts: --sort',
      'lib/auth/api-keys.ts: --expires-at',
    ]);
  });
});
