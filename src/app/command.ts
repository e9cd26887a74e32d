/**
 * How a verb declares itself: name, description, arguments, flags, examples and its run function,
 * together in one file, with the flags read into a typed object (the key of each flag is its
 * commander attribute name, checked when the tree is built, so a renamed flag cannot silently read
 * `undefined`). Declaring loads nothing heavy: a verb's run function imports what it uses lazily.
 */
import type { Command } from 'commander';
import type { ValueSource } from '../lib/completion-values.js';
import { UsageError } from '../lib/errors.js';
import { positiveId } from '../lib/ids.js';
import {
  type Age,
  type KeyValue,
  parseCreditsMilli,
  parseDuration,
  parseIntegerOption,
  readPair,
  readWhen,
  type When,
} from '../lib/options.js';
import type { Context } from './context.js';

/**
 * How a flag's text becomes a typed value. program.ts calls `parse` once, when the command line is
 * read and before the verb runs, with the flag's long name for the usage error; verbs and lib get the value.
 */
export interface ValueKind<T> {
  parse(raw: string, flag: string): T;
}

/**
 * A whole number, `min` or more (`must be <min> or more`), at most `max` (`at most <max>`); `check`
 * refuses other values with a message of its own.
 */
export function integer(
  bounds: { min?: number; max?: number; check?: (n: number, raw: string, flag: string) => UsageError | undefined } = {},
): ValueKind<number> {
  return {
    parse(raw, flag) {
      const n = parseIntegerOption(raw, flag, bounds.min) as number;
      if (bounds.max !== undefined && n > bounds.max)
        throw new UsageError(`Invalid ${flag} '${raw}': at most ${bounds.max}.`);
      const refused = bounds.check?.(n, raw, flag);
      if (refused) throw refused;
      return n;
    },
  };
}

/**
 * Seconds above 0 (and at most `max`), decimals allowed (`0.5`); `expected` ends the usage error (each
 * flag has said it its own way).
 */
export function seconds(expected: string, max = Number.POSITIVE_INFINITY): ValueKind<number> {
  return {
    parse(raw, flag) {
      const n = Number(raw.trim());
      if (raw.trim() === '' || !Number.isFinite(n) || n <= 0 || n > max)
        throw new UsageError(`Invalid ${flag} '${raw}': ${expected}`);
      return n;
    },
  };
}

/** A duration as `parseDuration` reads it (`14d`, `24h`, `0`), in milliseconds. */
export const duration: ValueKind<number> = { parse: (raw, flag) => parseDuration(raw, flag) };

/** A duration kept with its text, for the messages that quote it (`--older-than 90d`). */
export const age: ValueKind<Age> = { parse: (raw, flag) => ({ ms: parseDuration(raw, flag), text: raw }) };

/** An age back from when the verb runs (`7d`), a date (`2026-11-01`, local midnight) or an ISO time: see `whenAt`. */
export const when: ValueKind<When> = { parse: (raw, flag) => readWhen(raw, flag) };

/** A positive whole number naming a resource (a subscription, a list), as its path segment. */
export const id: ValueKind<string> = { parse: (raw, flag) => positiveId(raw, flag) };

/** `key=value`, dot paths nesting (`number_of_followers.min=10000`), the value typed (`true`, `3`, `a,b`). */
export const keyValue: ValueKind<KeyValue> = { parse: (raw, flag) => readPair(raw, flag) };

/** Text that is not blank, trimmed. */
export const text: ValueKind<string> = {
  parse(raw, flag) {
    const t = raw.trim();
    if (!t) throw new UsageError(`${flag} needs a value.`);
    return t;
  },
};

/** Credits, exact to the thousandth as every price is held (`0.03` is 30), 0 or more. */
export const credits: ValueKind<number> = { parse: (raw, flag) => parseCreditsMilli(raw, flag) };

/** An http(s) URL, or `none` (null): a webhook the service pushes to. */
export const httpUrlOrNone: ValueKind<string | null> = {
  parse(raw, flag) {
    if (raw === 'none') return null;
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
      throw new UsageError(`Invalid ${flag} '${raw}': expected an http(s) URL, or none.`);
    return raw;
  },
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function isoTimeKind(allowNone: boolean): ValueKind<string | null> {
  return {
    parse(raw, flag) {
      const text = raw.trim();
      if (allowNone && text.toLowerCase() === 'none') return null;
      const ms = Date.parse(text);
      if (!ISO_TIME.test(text) || Number.isNaN(ms)) {
        throw new UsageError(
          `Invalid ${flag} '${text}': expected an ISO 8601 date or time such as 2027-01-31 or 2027-01-31T12:00:00Z${allowNone ? ", or 'none'" : ''}.`,
        );
      }
      return new Date(ms).toISOString();
    },
  };
}

/** An ISO 8601 date or time (`2027-01-31`, `2027-01-31T12:00:00Z`), sent as a UTC ISO string. */
export const isoTime = isoTimeKind(false) as ValueKind<string>;
/** As `isoTime`, or `none` (null). */
export const isoTimeOrNone = isoTimeKind(true);

/** One character, or its name (tab, comma, semicolon, pipe): a CSV delimiter; never a quote or a line break. */
export const delimiter: ValueKind<string> = {
  parse(raw, flag) {
    const byName: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';', pipe: '|' };
    const d = byName[raw.toLowerCase()] ?? raw;
    if ([...d].length !== 1 || d === '"' || d === '\n' || d === '\r') {
      throw new UsageError(`${flag} must be one character (or tab, comma, semicolon, pipe), not '${raw}'.`);
    }
    return d;
  },
};

/**
 * Dot paths separated by commas (`profile.username,user_id`), in order. A list with an empty entry or an
 * empty path segment (`a..b,`) cannot be read as the user meant it: refused, never guessed at.
 */
export const fieldPaths: ValueKind<string[]> = {
  parse(raw, flag) {
    const fields = raw.split(',').map((f) => f.trim());
    if (fields.every((f) => f === ''))
      throw new UsageError(`${flag} needs at least one field name, e.g. ${flag} profile.username,user_id`);
    const bad = fields.findIndex((f) => f === '' || f.split('.').includes(''));
    if (bad >= 0) {
      const what =
        fields[bad] === ''
          ? `field ${bad + 1} of ${fields.length} is empty`
          : `'${fields[bad] as string}' has an empty path segment`;
      throw new UsageError(
        `Invalid ${flag} '${raw}': ${what}; give dot paths separated by commas, e.g. profile.username,user_id.`,
      );
    }
    return fields;
  },
};

/** A credential given on the command line: empty (or only `Bearer`) is a mistake, never a reason to use another key. */
export const apiKeyText: ValueKind<string> = {
  parse(raw, flag) {
    if (raw.trim().replace(/^Bearer(\s+|$)/i, '') === '') {
      throw new UsageError(
        `${flag} is empty: give the key, or leave the flag out to use CREATORS_API_KEY or the profile's login.`,
      );
    }
    return raw;
  },
};

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
  /** The value's kind when it is not text (a number of credits, seconds...): the verb receives it parsed. */
  value?: ValueKind<unknown>;
}

export type FlagDefs = Record<string, FlagDef>;

/** The typed value of one flag, inferred from its declaration. */
export type FlagValue<F extends FlagDef> = F extends { value: ValueKind<infer T> }
  ? F extends { repeat: true }
    ? T[]
    : F extends { default: string }
      ? T
      : T | undefined
  : F extends { repeat: true }
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
