/**
 * How a verb declares itself: name, description, arguments, flags, examples and its run function,
 * together in one file, with the flags read into a typed object (the key of each flag is its
 * commander attribute name, checked when the tree is built, so a renamed flag cannot silently read
 * `undefined`). Declaring loads nothing heavy: a verb's run function imports what it uses lazily.
 */
import type { Command } from 'commander';
import type { ValueSource } from '../lib/completion-values.js';
import type { Context } from './context.js';

/** One flag. `flags` is commander's syntax: `--platform <p>`, `-f, --field <key=value>`, `--all`. */
export interface FlagDef {
  flags: string;
  description: string;
  /** Repeatable value: every occurrence is collected into a list. */
  repeat?: boolean;
  default?: string;
  choices?: readonly string[];
  /** Not shown in `--help` (deprecated spellings). */
  hidden?: boolean;
  /** A boolean switch that also accepts `--no-<name>` (then false); undefined when neither is given. */
  negatable?: boolean;
  /**
   * What shell completion offers for the value (`choices` are offered without it). A value named `<file...>`
   * completes file names unless this says otherwise.
   */
  complete?: ValueSource;
  /** A value of `-` reads standard input (two such readers in one command line are refused before anything runs). */
  stdin?: boolean;
}

export type FlagDefs = Record<string, FlagDef>;

/** The typed value of one flag, inferred from its declaration. */
export type FlagValue<F extends FlagDef> = F extends { repeat: true }
  ? string[]
  : F['flags'] extends `${string}<${string}>`
    ? F extends { default: string }
      ? string
      : string | undefined
    : F extends { negatable: true }
      ? boolean | undefined
      : boolean;

export type FlagValues<F extends FlagDefs> = { [K in keyof F]: FlagValue<F[K]> };

/** A positional argument: `<id>`, `[handles...]`. */
export interface ArgDef {
  name: string;
  description: string;
  /** What shell completion offers for it; an argument named `<file...>` completes file names unless this says otherwise. */
  complete?: ValueSource;
  /** A value of `-` reads standard input (as `FlagDef.stdin`). */
  stdin?: boolean;
}

export interface CommandDef<F extends FlagDefs = FlagDefs> {
  name: string;
  aliases?: readonly string[];
  description: string;
  args?: readonly ArgDef[];
  flags?: F;
  /** `[command line, what it does]` pairs shown under Examples in `--help`. */
  examples?: ReadonlyArray<readonly [string, string]>;
  /** More help text after the examples. */
  helpAfter?: string;
  /**
   * Ctrl-C is how this command normally ends (a server in the foreground): exit 0. Any other command
   * that Ctrl-C stopped exits 130, even when it could finish what it had already sent.
   */
  endsOnCtrlC?: boolean;
  /**
   * The verb: `args` are the positional values in order (variadic ones spread), `flags` the typed flags.
   * Loaded lazily in effect: import heavy modules inside, with `await import()`. `command` is this
   * verb's commander node, for the few verbs that walk the tree itself (`help`, `completion`).
   */
  run(ctx: Context, input: { args: string[]; flags: FlagValues<F>; command: Command }): Promise<void>;
}

/** A group of verbs (`creators keys ...`). */
export interface GroupDef {
  name: string;
  aliases?: readonly string[];
  description: string;
  examples?: ReadonlyArray<readonly [string, string]>;
  helpAfter?: string;
  commands: ReadonlyArray<CommandNode>;
}

export type CommandNode = { kind: 'command'; def: CommandDef<FlagDefs> } | { kind: 'group'; def: GroupDef };

/** Declares a verb; the flag types flow from `flags` into `run`. */
export function defineCommand<const F extends FlagDefs = Record<never, FlagDef>>(def: CommandDef<F>): CommandNode {
  return { kind: 'command', def: def as unknown as CommandDef<FlagDefs> };
}

/** Declares a group of verbs. */
export function defineGroup(def: GroupDef): CommandNode {
  return { kind: 'group', def };
}
