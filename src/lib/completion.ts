/** Shell completion scripts generated from the command tree (names, descriptions, flags). */
import type { Command } from 'commander';

export interface CompletionTree {
  name: string;
  description: string;
  options: { flags: string[]; description: string; takesValue: boolean }[];
  commands: CompletionTree[];
}

/** The tree a script is generated from: every command's name, first line of description and visible flags. */
export function completionTree(cmd: Command): CompletionTree {
  return {
    name: cmd.name(),
    description: cmd.description().split('\n')[0] ?? '',
    options: cmd.options.filter((o) => !o.hidden).map((o) => ({ flags: [o.long, o.short].filter((f): f is string => Boolean(f)), description: o.description, takesValue: o.required || o.optional })),
    commands: cmd.commands.map(completionTree),
  };
}

/** Every command path with its subcommand names and flags: `["", "config", "config set"]`. */
function paths(tree: CompletionTree, prefix: string[] = []): { path: string[]; node: CompletionTree }[] {
  const out = [{ path: prefix, node: tree }];
  for (const c of tree.commands) out.push(...paths(c, [...prefix, c.name]));
  return out;
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function bashScript(tree: CompletionTree): string {
  const globals = tree.options.flatMap((o) => o.flags);
  const all = paths(tree);
  const known = `|${all.map(({ path }) => path.join(' ')).join('|')}|`;
  const cases = all
    .map(({ path, node }) => {
      const words = [...node.commands.map((c) => c.name), ...node.options.flatMap((o) => o.flags), ...globals];
      return `    ${quote(path.join(' '))}) opts=${quote([...new Set(words)].join(' '))} ;;`;
    })
    .join('\n');
  return `# bash completion for ${tree.name}
_${tree.name}_complete() {
  local cur word cand i opts path=""
  local known=${quote(known)}
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    cand="\${path:+$path }$word"
    [[ "$known" == *"|$cand|"* ]] && path="$cand"
  done
  case "$path" in
${cases}
    *) opts=${quote(globals.join(' '))} ;;
  esac
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
complete -o default -F _${tree.name}_complete ${tree.name}
`;
}

export function zshScript(tree: CompletionTree): string {
  const cases = paths(tree)
    .map(({ path, node }) => {
      const entries = [
        ...node.commands.map((c) => `${c.name}:${c.description.replace(/[:']/g, ' ')}`),
        ...node.options.flatMap((o) => o.flags.map((f) => `${f.replace(/:/g, '\\:')}:${o.description.replace(/[:']/g, ' ')}`)),
      ];
      return `    ${quote(path.join(' '))}) items=(${entries.map(quote).join(' ')}) ;;`;
    })
    .join('\n');
  return `#compdef ${tree.name}
# zsh completion for ${tree.name}
_${tree.name}() {
  local -a items words_path
  local w
  for w in \${words[2,CURRENT-1]}; do
    [[ "$w" == -* ]] || words_path+=("$w")
  done
  case "\${(j: :)words_path}" in
${cases}
    *) items=() ;;
  esac
  _describe 'command' items
}
compdef _${tree.name} ${tree.name}
`;
}

export function fishScript(tree: CompletionTree): string {
  const lines = [`# fish completion for ${tree.name}`, `complete -c ${tree.name} -f`];
  for (const { path, node } of paths(tree)) {
    const cond =
      path.length === 0
        ? `__fish_use_subcommand`
        : `__fish_seen_subcommand_from ${path[path.length - 1]}`;
    for (const c of node.commands) {
      lines.push(`complete -c ${tree.name} -n ${quote(cond)} -a ${quote(c.name)} -d ${quote(c.description)}`);
    }
    for (const o of node.options) {
      const long = o.flags.find((f) => f.startsWith('--'));
      const short = o.flags.find((f) => /^-[^-]$/.test(f));
      const parts = [`complete -c ${tree.name}`];
      if (path.length > 0) parts.push(`-n ${quote(cond)}`);
      if (long) parts.push(`-l ${long.slice(2)}`);
      if (short) parts.push(`-s ${short.slice(1)}`);
      if (o.takesValue) parts.push('-r');
      parts.push(`-d ${quote(o.description)}`);
      lines.push(parts.join(' '));
    }
  }
  return `${lines.join('\n')}\n`;
}
