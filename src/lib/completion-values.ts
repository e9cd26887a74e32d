/**
 * What shell completion offers for an option's or an argument's value. Declared beside the option or argument
 * (`FlagDef.complete`, `ArgDef.complete`) and attached to its commander node when the tree is built, so the
 * completion scripts are generated from the same declarations the parser uses; commander `choices` count too.
 * Kept apart from the script generators (lib/completion.ts): the tree is built on every run, the scripts rarely.
 */

/** What a script generator knows when it looks words up: the tree's top-level command names. */
export interface ValueContext {
  commands: readonly string[];
}

/**
 * Fixed words, `'files'` for file names, or words looked up only when a script is generated (a list that
 * lives in a module a verb may not load up front: help topics, config keys; or taken from the tree:
 * `help`'s command names).
 */
export type ValueSource = readonly string[] | 'files' | ((context: ValueContext) => Promise<readonly string[]>);

/** A node's completion metadata: where its values come from, and whether the option may be given again. */
export interface CompletionMeta {
  values?: ValueSource | undefined;
  repeat?: boolean | undefined;
}

const metas = new WeakMap<object, CompletionMeta>();

/** Attaches completion metadata to a commander `Option` or `Argument`; returns the node. */
export function completeWith<T extends object>(node: T, meta: CompletionMeta): T {
  metas.set(node, meta);
  return node;
}

/** The metadata attached to a commander node, if any. */
export function completionMeta(node: object): CompletionMeta {
  return metas.get(node) ?? {};
}
