/**
 * The JSON text of data for output: numbers a double cannot hold written with their exact digits
 * (exact-json.ts) and C1 controls escaped (safe-text.ts), so `jq -r` on a terminal is safe. Every
 * json/jsonl line the CLI prints goes through here.
 */
import { stringifyJson } from '../exact-json.js';
import { escapeJsonC1 } from '../io/safe-text.js';

export function jsonText(value: unknown, indent?: number): string {
  return escapeJsonC1(stringifyJson(value, indent));
}

/**
 * A JSON object whose keys are written in the order given. A JS object cannot be trusted with that:
 * integer-like keys (`"2024"`) always come first, whatever order they were set in, and a CSV's columns
 * must come out in the file's order. Values are any JSON value, or another `OrderedJson`. Keys are not
 * checked for repeats: the caller gives unique names.
 */
export class OrderedJson {
  constructor(readonly entries: ReadonlyArray<readonly [string, unknown]>) {}
}

/**
 * The JSON text of an `OrderedJson`: exactly the bytes `jsonText` writes for an object with those keys
 * in that order (same spacing for `indent`, entries whose value is `undefined` left out, exact numbers,
 * C1 controls escaped).
 */
export function orderedJsonText(value: OrderedJson, indent?: number): string {
  return escapeJsonC1(writeObject(value, indent !== undefined && indent > 0 ? ' '.repeat(indent) : '', ''));
}

function writeObject(value: OrderedJson, step: string, pad: string): string {
  const inner = pad + step;
  const parts: string[] = [];
  for (const [key, child] of value.entries) {
    const text = writeValue(child, step, inner);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}${step ? ': ' : ':'}${text}`);
  }
  if (parts.length === 0) return '{}';
  return step ? `{\n${inner}${parts.join(`,\n${inner}`)}\n${pad}}` : `{${parts.join(',')}}`;
}

function writeValue(value: unknown, step: string, pad: string): string | undefined {
  if (value instanceof OrderedJson) return writeObject(value, step, pad);
  const text = stringifyJson(value, step ? step.length : undefined) as string | undefined;
  // JSON text holds no raw line break (strings escape theirs): each one starts a line to indent.
  return text !== undefined && step && pad ? text.replace(/\n/g, `\n${pad}`) : text;
}
