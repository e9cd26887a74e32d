import { assignPairs } from './options.js';

export interface BodyFlags {
  body?: string | undefined;
  set?: string[] | undefined;
}

export interface BodyPorts {
  /** The JSON object a body file (or `-`) holds: refused when it is not one. */
  bodyObject(source: string): Promise<Record<string, unknown>>;
}

/** Later wins: `--body`, `--set`, the command's flags. Unknown keys pass through rather than guess the server's schema. */
export async function buildBody(ports: BodyPorts, flags: BodyFlags, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = flags.body === undefined ? {} : await ports.bodyObject(flags.body);
  assignPairs(flags.set ?? [], '--set', body);
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
  return body;
}
