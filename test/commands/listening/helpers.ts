/** Helpers for the listening tests: a sandbox with a clock the test moves, and raw API calls. */
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type SandboxOptions } from '../../../src/sandbox/server.js';
import type { StartedSandbox } from '../../helpers/sandbox.js';

export const START = Date.parse('2026-11-22T10:00:00Z');

export interface ClockedSandbox {
  get(): StartedSandbox;
  /** The sandbox clock (ms). */
  now(): number;
  advance(ms: number): void;
}

/** A sandbox whose clock only moves when the test says so. */
export function useClockedSandbox(options: SandboxOptions = {}): ClockedSandbox {
  let clock = START;
  let sandbox: StartedSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => clock, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return {
    get() {
      if (!sandbox) throw new Error('sandbox not started');
      return sandbox;
    },
    now: () => clock,
    advance(ms) {
      clock += ms;
    },
  };
}

/** A raw call to the sandbox (test set-up, not the code under test). */
export async function call(
  sb: StartedSandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

export const L = '/public/v1/social/listening';

/** Creates a subscription watching `handles` on instagram, returns its id. */
export async function subscribe(
  sb: StartedSandbox,
  name: string,
  handles: string[],
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await call(sb, 'POST', `${L}/subscription/`, {
    name,
    creators: handles.map((h) => ({ platform: 'instagram', platform_id: h })),
    ...extra,
  });
  if (res.status !== 201) throw new Error(`subscribe failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}
