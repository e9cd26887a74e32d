import { UsageError } from './errors.js';
import { readInputJson, type InputPorts } from './io/input.js';
import { assignPairs } from './options.js';

/** The flags every body-taking command shares: `--body <file|->` and repeated `--set key=value`. */
export interface BodyFlags {
  body?: string | undefined;
  set?: string[] | undefined;
}

/**
 * Builds a JSON request body for routes whose fields the spec does not name. Layers, later wins:
 * the `--body` file (or stdin with `-`, a JSON object), then `--set key=value` pairs (typed values,
 * dot paths nest, as `--filter` does), then the command's own flags (`fields`, undefined ones skipped).
 * Unknown keys are sent as given: the CLI passes them through rather than guessing the server's schema.
 * `ports` (the terminal object) open the `--body` file or standard input.
 */
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

