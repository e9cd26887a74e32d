import { UsageError } from './errors.js';
import { readInputJson, type InputPorts } from './io/input.js';
import { assignPairs } from './options.js';

export interface BodyFlags {
  body?: string | undefined;
  set?: string[] | undefined;
}

/** Later wins: `--body`, `--set`, the command's flags. Unknown keys pass through rather than guess the server's schema. */
export async function buildBody(ports: InputPorts, flags: BodyFlags, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  if (flags.body !== undefined) {
    const parsed = await readInputJson(ports, flags.body, '--body');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError(`--body '${flags.body}' must hold a JSON object, e.g. {"name": "Launch watch"}.`);
    }
    body = parsed as Record<string, unknown>;
  }
  assignPairs(flags.set ?? [], '--set', body);
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
  return body;
}

