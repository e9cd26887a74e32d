// Apart from lib/completion.ts: the tree (and these declarations) is built on every run, the scripts rarely.

export interface ValueContext {
  commands: readonly string[];
}

/** A function is called only when a script is generated: its list may live in a module a verb does not load. */
export type ValueSource = readonly string[] | 'files' | ((context: ValueContext) => Promise<readonly string[]>);

export interface CompletionMeta {
  values?: ValueSource | undefined;
  repeat?: boolean | undefined;
}

const metas = new WeakMap<object, CompletionMeta>();

export function completeWith<T extends object>(node: T, meta: CompletionMeta): T {
  metas.set(node, meta);
  return node;
}

export function completionMeta(node: object): CompletionMeta {
  return metas.get(node) ?? {};
}
