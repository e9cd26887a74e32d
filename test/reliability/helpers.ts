/** Helpers for the reliability suite: fault rules in force, ledger snapshots, raw wire calls. */
import { request as httpRequest } from 'node:http';
import { describeFaults, resetFaultCounters, setFaults } from '../../src/sandbox/faults/engine.js';
import { parseFaultSpec } from '../../src/sandbox/faults/rules.js';
import type { StartedSandbox } from '../helpers/sandbox.js';

/** Puts `spec` in force (replacing earlier rules) with fresh counters; '' clears. */
export function faults(sb: StartedSandbox, spec: string): void {
  setFaults(sb.state, spec ? parseFaultSpec(spec) : []);
  resetFaultCounters(sb.state);
}

export interface FaultFigures {
  injected: Record<string, number>;
  total: number;
  requests: number;
  charged_then_lost: number;
  rules: { spec: string; matched: number; injected: number }[];
}

export function figures(sb: StartedSandbox): FaultFigures {
  return describeFaults(sb.state) as unknown as FaultFigures;
}

/** A ledger mark: what was charged since it was taken. */
export function ledgerMark(sb: StartedSandbox): { since(): { count: number; milli: number; notes: string[] } } {
  const count = sb.state.ledger.charges.length;
  const used = sb.state.ledger.usedMilli;
  return {
    since() {
      const charges = sb.state.ledger.charges.slice(count);
      return { count: charges.length, milli: sb.state.ledger.usedMilli - used, notes: charges.map((c) => c.note) };
    },
  };
}

export interface WireResult {
  status?: number;
  body: string;
  /** The socket closed before a complete response. */
  error?: string;
}

/** One raw HTTP exchange on a fresh connection, reporting exactly what came over the wire. */
export function wire(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<WireResult> {
  return new Promise((resolve) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: { connection: 'close', ...options.headers }, agent: false },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode, body }));
        res.on('error', (err) =>
          resolve({ status: res.statusCode, body, error: (err as NodeJS.ErrnoException).code ?? err.message }),
        );
        res.on('aborted', () => resolve({ status: res.statusCode, body, error: 'aborted' }));
      },
    );
    req.on('error', (err) => resolve({ body: '', error: (err as NodeJS.ErrnoException).code ?? err.message }));
    req.end(options.body);
  });
}

/** `Spent 0.05 credits ...` / `0.05 credits spent` from a terminal summary line, in thousandths. */
export function reportedSpendMilli(stderr: string): number {
  const all = [...stderr.matchAll(/(?:Spent ([\d.,]+) credits?|([\d.,]+) credits? spent)/g)];
  return all.reduce((sum, m) => sum + Math.round(Number((m[1] ?? m[2] ?? '0').replace(/,/g, '')) * 1000), 0);
}

/**
 * An abort signal that fires (like Ctrl-C) once the sandbox ledger holds `charges` charges, or never
 * when `charges` is undefined; `stop()` ends the watching.
 */
export function abortAfterCharges(
  sb: StartedSandbox,
  charges: number | undefined,
): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  let poll: NodeJS.Timeout | undefined;
  if (charges !== undefined) {
    poll = setInterval(() => {
      if (sb.state.ledger.charges.length >= charges) {
        clearInterval(poll);
        controller.abort();
      }
    }, 2);
  }
  return { signal: controller.signal, stop: () => clearInterval(poll) };
}
