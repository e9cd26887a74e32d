/** Every json/jsonl line: exact big numbers, and C1 controls escaped so `jq -r` on a terminal is safe. */
import { JsonText, stringifyJson } from '../exact-json.js';
import { escapeJsonC1 } from '../io/safe-text.js';

export function jsonText(value: unknown, indent?: number): string {
  return escapeJsonC1(stringifyJson(value, indent));
}

/**
 * Keys in the order given: a JS object puts integer-like keys (`"2024"`) first, and a CSV's columns keep the file's
 * order.
 */
export class OrderedJson {
  constructor(readonly entries: ReadonlyArray<readonly [string, unknown]>) {}
}

/** Exactly the bytes `jsonText` writes for an object with those keys in that order. */
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
  // Compact, a canonical text is the bytes stringifyJson would write; indented, it is parsed (its toJSON).
  if (value instanceof JsonText && !step) return value.text;
  const text = stringifyJson(value, step ? step.length : undefined) as string | undefined;
  // JSON text holds no raw line break (strings escape theirs): each one starts a line to indent.
  return text !== undefined && step && pad ? text.replace(/\n/g, `\n${pad}`) : text;
}
