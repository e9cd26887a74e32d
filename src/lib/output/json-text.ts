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
