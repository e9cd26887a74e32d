/** The scripts are generated from the command tree and static: a TAB runs shell code only, never Node. */
import type { Argument, Command, Option } from 'commander';
import { completionMeta, type ValueContext, type ValueSource } from '../lib/completion-values.js';

export interface ValueCompletion {
  words: readonly string[];
  files: boolean;
}

export interface CompletionOption {
  flags: string[];
  description: string;
  takesValue: boolean;
  placeholder: string;
  repeat: boolean;
  values: ValueCompletion;
}

export interface CompletionArg {
  name: string;
  required: boolean;
  variadic: boolean;
  values: ValueCompletion;
}

export interface CompletionTree {
  name: string;
  aliases: string[];
  description: string;
  options: CompletionOption[];
  args: CompletionArg[];
  commands: CompletionTree[];
}

const NONE: ValueCompletion = { words: [], files: false };

/** A value named `<file>`, `<file.csv|->`, `[file]` completes file names unless declared otherwise. */
const namesAFile = (placeholder: string): boolean => /^file\b/.test(placeholder);

async function resolve(
  source: ValueSource | undefined,
  choices: readonly string[] | undefined,
  placeholder: string,
  context: ValueContext,
): Promise<ValueCompletion> {
  if (choices && choices.length > 0) return { words: [...choices], files: false };
  if (source === 'files') return { words: [], files: true };
  if (typeof source === 'function') return { words: [...(await source(context))], files: false };
  if (source) return { words: [...source], files: false };
  return namesAFile(placeholder) ? { words: [], files: true } : NONE;
}

async function option(o: Option, context: ValueContext): Promise<CompletionOption> {
  const takesValue = o.required || o.optional;
  const placeholder = takesValue ? (/[<[]([^>\]]+)[>\]]/.exec(o.flags)?.[1] ?? 'value') : '';
  const meta = completionMeta(o);
  return {
    flags: [o.long, o.short].filter((f): f is string => Boolean(f)),
    description: o.description,
    takesValue,
    placeholder,
    repeat: meta.repeat === true,
    values: takesValue ? await resolve(meta.values, o.argChoices, placeholder, context) : NONE,
  };
}

async function argument(a: Argument, context: ValueContext): Promise<CompletionArg> {
  return {
    name: a.name(),
    required: a.required,
    variadic: a.variadic,
    values: await resolve(completionMeta(a).values, a.argChoices, a.name(), context),
  };
}

export async function completionTree(
  cmd: Command,
  context: ValueContext = { commands: cmd.commands.map((c) => c.name()) },
): Promise<CompletionTree> {
  return {
    name: cmd.name(),
    aliases: cmd.aliases(),
    description: cmd.description().split('\n')[0] ?? '',
    options: await Promise.all(cmd.options.filter((o) => !o.hidden).map((o) => option(o, context))),
    args: await Promise.all(cmd.registeredArguments.map((a) => argument(a, context))),
    commands: await Promise.all(cmd.commands.map((c) => completionTree(c, context))),
  };
}

interface PathNode {
  path: string[];
  node: CompletionTree;
}

function paths(tree: CompletionTree, prefix: string[] = []): PathNode[] {
  const out: PathNode[] = [{ path: prefix, node: tree }];
  for (const c of tree.commands) out.push(...paths(c, [...prefix, c.name]));
  return out;
}

/** The root's options a subcommand accepts too: all but `--version`, which only the root answers. */
const inherited = (tree: CompletionTree): CompletionOption[] =>
  tree.options.filter((o) => !o.flags.includes('--version'));

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const words = (v: ValueCompletion): string => v.words.join(' ');

/** bash: the line is walked once (`--opt=value` split by COMP_WORDBREAKS included), then that place's words offered. */
export function bashScript(tree: CompletionTree): string {
  const fn = `_${tree.name.replace(/\W/g, '_')}`;
  const all = paths(tree);
  const globals = inherited(tree);
  const key = (path: string[], word: string): string => quote(`${path.join(' ')}|${word}`);

  const children = all.flatMap(({ path, node }) =>
    node.commands.map(
      (c) =>
        `    ${[c.name, ...c.aliases].map((n) => key(path, n)).join('|')}) path=${quote([...path, c.name].join(' '))} ;;`,
    ),
  );
  const globalValued = globals.filter((o) => o.takesValue).flatMap((o) => o.flags);
  const valued = all.flatMap(({ path, node }) =>
    path.length === 0 ? [] : node.options.filter((o) => o.takesValue).flatMap((o) => o.flags.map((f) => key(path, f))),
  );
  const assign = (pattern: string, v: ValueCompletion): string =>
    `    ${pattern}) words=${quote(words(v))}${v.files ? ' files=1' : ''} ;;`;
  const valueCases = [
    ...all.flatMap(({ path, node }) =>
      path.length === 0
        ? []
        : node.options
            .filter((o) => o.takesValue)
            .map((o) => assign(o.flags.map((f) => key(path, f)).join('|'), o.values)),
    ),
    // A global option's value, wherever it is given.
    ...globals
      .filter((o) => o.takesValue)
      .map((o) => assign(o.flags.map((f) => `*${quote(`|${f}`)}`).join('|'), o.values)),
  ];
  const argCases = all.flatMap(({ path, node }) => node.args.map((a, i) => assign(key(path, `#${i}`), a.values)));
  // A variadic last argument fills every position from its own on.
  const variadic = all.flatMap(({ path, node }) => {
    const last = node.args.length - 1;
    return node.args[last]?.variadic ? [`    ${quote(path.join(' '))}) ((npos > ${last})) && npos=${last} ;;`] : [];
  });
  const placeCases = all.map(({ path, node }) => {
    const opts = [
      ...node.options.flatMap((o) => o.flags),
      ...(path.length === 0 ? [] : globals.flatMap((o) => o.flags)),
    ];
    return `    ${quote(path.join(' '))}) subs=${quote(node.commands.map((c) => c.name).join(' '))} opts=${quote([...new Set(opts)].join(' '))} ;;`;
  });

  return `# bash completion for ${tree.name} (generated by \`${tree.name} completion bash\`)
${fn}_valued() {
  case "$2" in
    ${globalValued.map(quote).join('|') || "''"}) return 0 ;;
  esac
  case "$1|$2" in
${valued.length > 0 ? `    ${valued.join('|')}) return 0 ;;\n` : ''}  esac
  return 1
}
${fn}_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" word i path="" npos=0 pending="" subs="" opts="" words="" files="" key
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ -n "$pending" ]]; then
      # --opt=value: bash splits the = into a word of its own.
      [[ "$word" == "=" ]] && continue
      pending=""
      continue
    fi
    if [[ "$word" == -* ]]; then
      ${fn}_valued "$path" "$word" && pending="$word"
      continue
    fi
    case "$path|$word" in
${children.join('\n')}
    *) npos=$((npos + 1)) ;;
    esac
  done
  [[ -n "$pending" && "$cur" == "=" ]] && cur=""
  case "$path" in
${variadic.join('\n')}
  esac
  if [[ -n "$pending" ]]; then
    key="$path|$pending"
  else
    key="$path|#$npos"
  fi
  case "$key" in
${[...valueCases, ...argCases].join('\n')}
  esac
  case "$path" in
${placeCases.join('\n')}
  esac
  COMPREPLY=()
  if [[ -z "$pending" && "$cur" == -* ]]; then
    words="$opts"
    files=""
  elif [[ -z "$pending" ]]; then
    words="$subs\${subs:+ }$words"
    # Nothing else to offer at this place: its options.
    [[ -z "\${words// /}" && -z "$files" ]] && words="$opts"
  fi
  [[ -n "\${words// /}" ]] && mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
  if [[ -n "$files" ]]; then
    compopt -o filenames 2>/dev/null
    mapfile -t -O "\${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
  fi
  return 0
}
complete -F ${fn}_complete ${tree.name}
`;
}

const zshDescription = (s: string): string =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/[[\]]/g, (c) => `\\${c}`)
    .replace(/:/g, '\\:');

function zshAction(v: ValueCompletion): string {
  if (v.files) return '_files';
  if (v.words.length > 0) return `(${v.words.map((w) => w.replace(/([\s()\\:])/g, '\\$1')).join(' ')})`;
  return ' ';
}

function zshOptionSpecs(o: CompletionOption): string[] {
  const message = o.placeholder.replace(/:/g, '');
  const value = o.takesValue ? `:${message}:${zshAction(o.values)}` : '';
  const exclusive = !o.repeat && o.flags.length > 1 ? `(${o.flags.join(' ')})` : '';
  const star = o.repeat ? '*' : '';
  return o.flags.map((f) => {
    const suffix = o.takesValue ? (f.startsWith('--') ? '=' : '+') : '';
    return `${exclusive}${star}${f}${suffix}[${zshDescription(o.description)}]${value}`;
  });
}

function zshArgSpecs(args: readonly CompletionArg[]): string[] {
  return args.map((a) => {
    const message = a.name.replace(/:/g, '');
    if (a.variadic) return `*:${message}:${zshAction(a.values)}`;
    return `${a.required ? '' : ':'}:${message}:${zshAction(a.values)}`;
  });
}

/** zsh: one `_arguments` function per command, so values and file names come from zsh's own machinery. */
export function zshScript(tree: CompletionTree): string {
  const base = `_${tree.name.replace(/\W/g, '_')}`;
  const fnName = (path: string[]): string => [base, ...path.map((p) => p.replace(/\W/g, '_'))].join('__');
  const globals = inherited(tree).flatMap(zshOptionSpecs);
  const globalsVar = `${base}_globals`;
  const functions = paths(tree).map(({ path, node }) => {
    const specs = [
      ...(path.length === 0 ? [] : [`"\${${globalsVar}[@]}"`]),
      ...node.options.flatMap(zshOptionSpecs).map(quote),
    ];
    const context = [tree.name, ...path].join('-');
    if (node.commands.length === 0) {
      return `${fnName(path)}() {
  _arguments -s -S \\
    ${[...specs, ...zshArgSpecs(node.args).map(quote)].join(' \\\n    ')}
}`;
    }
    const subs = node.commands.map((c) => quote(`${c.name}:${zshDescription(c.description)}`));
    const dispatch = node.commands.map(
      (c) => `      (${[c.name, ...c.aliases].join('|')}) ${fnName([...path, c.name])} ;;`,
    );
    return `${fnName(path)}() {
  local curcontext="$curcontext" state state_descr line ret=1
  typeset -A opt_args
  _arguments -C -s \\
    ${[...specs, quote(': :->command'), quote('*:: :->argument')].join(' \\\n    ')} && ret=0
  case $state in
    (command)
      local -a subcommands=(${subs.join(' ')})
      _describe -t commands ${quote(`${[tree.name, ...path].join(' ')} command`)} subcommands && ret=0 ;;
    (argument)
      curcontext="\${curcontext%:*:*}:${context}-$line[1]:"
      case $line[1] in
${dispatch.join('\n')}
      esac ;;
  esac
  return ret
}`;
  });
  return `#compdef ${tree.name}
# zsh completion for ${tree.name} (generated by \`${tree.name} completion zsh\`)
${globalsVar}=(
  ${globals.map(quote).join('\n  ')}
)
${functions.join('\n')}
# Autoloaded from $fpath, complete now; sourced, register.
if [[ "\${funcstack[1]-}" == ${base} ]]; then
  ${base} "$@"
else
  compdef ${base} ${tree.name}
fi
`;
}

/** fish: the line is walked once, so subcommands are offered only where they belong (`enrich handle <TAB>`). */
export function fishScript(tree: CompletionTree): string {
  const c = tree.name;
  const fn = `__${c.replace(/\W/g, '_')}`;
  const all = paths(tree);
  const globals = inherited(tree);
  const key = (path: string[], word: string): string => quote(`${path.join(' ')}|${word}`);
  const children = all.flatMap(({ path, node }) =>
    node.commands.length === 0
      ? []
      : [
          `        case ${node.commands.flatMap((k) => [k.name, ...k.aliases].map((n) => key(path, n))).join(' ')}\n            set ${fn}_path ${path.map(quote).join(' ')} (string split -- '|' $pair)[2]`,
        ],
  );
  // An alias stands for its command's name in the path.
  const aliasFix = all.flatMap(({ path, node }) =>
    node.commands.flatMap((k) =>
      k.aliases.map((a) => `        case ${key(path, a)}\n            set ${fn}_path[-1] ${quote(k.name)}`),
    ),
  );
  const globalValued = globals.filter((o) => o.takesValue).flatMap((o) => o.flags);
  const valued = all.flatMap(({ path, node }) =>
    path.length === 0 ? [] : node.options.filter((o) => o.takesValue).flatMap((o) => o.flags.map((f) => key(path, f))),
  );

  const lines = [
    `# fish completion for ${c} (generated by \`${c} completion fish\`)`,
    `complete -c ${c} -f`,
    ``,
    `# Sets ${fn}_path (the command path), ${fn}_npos (positional values so far) and ${fn}_pending (an option waiting for its value).`,
    `function ${fn}_state`,
    `    set -l tokens (commandline -opc)`,
    `    set -e tokens[1]`,
    `    set -g ${fn}_path`,
    `    set -g ${fn}_npos 0`,
    `    set -g ${fn}_pending 0`,
    `    for word in $tokens`,
    `        if test $${fn}_pending = 1`,
    `            set ${fn}_pending 0`,
    `            continue`,
    `        end`,
    `        if string match -q -- '-*' $word`,
    `            ${fn}_valued "$${fn}_path" $word; and set ${fn}_pending 1`,
    `            continue`,
    `        end`,
    `        set -l pair "$${fn}_path|$word"`,
    `        switch $pair`,
    ...children,
    `            case '*'`,
    `                set ${fn}_npos (math $${fn}_npos + 1)`,
    `                continue`,
    `        end`,
    ...(aliasFix.length > 0 ? [`        switch $pair`, ...aliasFix, `        end`] : []),
    `    end`,
    `end`,
    ``,
    `function ${fn}_valued --argument-names path word`,
    ...(globalValued.length > 0 ? [`    contains -- $word ${globalValued.map(quote).join(' ')}; and return 0`] : []),
    ...(valued.length > 0
      ? [`    switch "$path|$word"`, `        case ${valued.join(' ')}`, `            return 0`, `    end`]
      : []),
    `    return 1`,
    `end`,
    ``,
    `# True when the command path is exactly $want; with $pos, also when no option waits for a value and the next`,
    `# positional value is number $pos (n+ for n or more).`,
    `function ${fn}_at --argument-names want pos`,
    `    ${fn}_state`,
    `    test "$${fn}_path" = "$want"; or return 1`,
    `    test -z "$pos"; and return 0`,
    `    test $${fn}_pending = 0; or return 1`,
    `    if string match -q -- '*+' $pos`,
    `        test $${fn}_npos -ge (string trim -r -c + -- $pos)`,
    `    else`,
    `        test $${fn}_npos = $pos`,
    `    end`,
    `end`,
    ``,
  ];

  const optionLine = (o: CompletionOption, cond: string | undefined): string => {
    const long = o.flags.find((f) => f.startsWith('--'));
    const short = o.flags.find((f) => /^-[^-]$/.test(f));
    const parts = [`complete -c ${c}`];
    if (cond) parts.push(`-n ${quote(cond)}`);
    if (long) parts.push(`-l ${long.slice(2)}`);
    if (short) parts.push(`-s ${short.slice(1)}`);
    if (o.takesValue) parts.push(o.values.files ? '-r -F' : '-x');
    if (o.values.words.length > 0) parts.push(`-a ${quote(words(o.values))}`);
    parts.push(`-d ${quote(o.description)}`);
    return parts.join(' ');
  };
  for (const { path, node } of all) {
    const at = (pos?: string): string => `${fn}_at "${path.join(' ')}"${pos === undefined ? '' : ` ${pos}`}`;
    for (const k of node.commands)
      lines.push(`complete -c ${c} -n ${quote(at('0'))} -a ${quote(k.name)} -d ${quote(k.description)}`);
    // The root's options hold everywhere (no condition), but for the root's own (--version).
    for (const o of node.options)
      lines.push(optionLine(o, path.length === 0 && globals.includes(o) ? undefined : at()));
    node.args.forEach((a, i) => {
      const pos = a.variadic ? `${i}+` : String(i);
      if (a.values.words.length > 0)
        lines.push(`complete -c ${c} -n ${quote(at(pos))} -a ${quote(words(a.values))} -d ${quote(a.name)}`);
      if (a.values.files) lines.push(`complete -c ${c} -n ${quote(at(pos))} -F`);
    });
  }
  return `${lines.join('\n')}\n`;
}
