import { type KeyValue, setPairs } from './options.js';

/** What a request body is built from: a JSON object (a file, or `-` for stdin), then fields set one by one. */
export interface BodyParts {
  /** The JSON object's source: a file, or `-`. */
  file?: string | undefined;
  pairs: readonly KeyValue[];
}

export interface BodyPorts {
  /** The JSON object a body file (or `-`) holds: refused when it is not one. */
  bodyObject(source: string): Promise<Record<string, unknown>>;
}

/**
 * Later wins: the file, the pairs, the command's own fields. Unknown keys pass through rather than guess the server's
 * schema.
 */
export async function buildBody(
  ports: BodyPorts,
  parts: BodyParts,
  fields: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = parts.file === undefined ? {} : await ports.bodyObject(parts.file);
  setPairs(parts.pairs, body);
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
  return body;
}
