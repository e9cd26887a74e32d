/**
 * Injecting a picked fault into a live node:http exchange. Before-faults answer (or drop) the
 * request before any handler runs, so nothing is processed or charged. After-faults let the
 * handler run (and charge), then spoil the reply on its way out by intercepting `res.end`: lost
 * entirely, cut short, made unparseable, trickled, or (file host) cut short with the link expired.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxState } from '../state.js';
import { faultTable, pickFault } from './engine.js';
import type { FaultRule, FaultTarget } from './rules.js';

export interface FaultHooks {
  /** `expire`: make the link of this request invalid from now on (file host). */
  expire?: () => void;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Reads the rest of the request so the socket is in a clean state before we answer or cut it. */
async function drain(req: IncomingMessage): Promise<void> {
  try {
    for await (const _ of req as AsyncIterable<Buffer>) {
      /* discard */
    }
  } catch {
    /* the client went away */
  }
}

function answer(
  res: ServerResponse,
  status: number,
  body: string,
  contentType: string,
  headers: Record<string, string | number> = {},
): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
}

/** The replies a proxy or an overloaded service gives; 502/504 come from a gateway, as HTML. */
function statusReply(res: ServerResponse, rule: FaultRule, target: FaultTarget): void {
  const status = Number(rule.kind);
  if (target === 'files') {
    const code = status === 503 ? 'SlowDown' : 'InternalError';
    answer(
      res,
      status,
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>Injected fault</Message></Error>`,
      'application/xml',
    );
  } else if (status === 502 || status === 504) {
    const title = status === 502 ? '502 Bad Gateway' : '504 Gateway Time-out';
    answer(
      res,
      status,
      `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center></body></html>\n`,
      'text/html',
    );
  } else if (status === 503) {
    answer(
      res,
      503,
      JSON.stringify({ detail: 'Service temporarily unavailable, try again later.' }),
      'application/json',
    );
  } else {
    answer(res, status, JSON.stringify({ detail: 'A server error occurred.' }), 'application/json');
  }
}

function tooMany(res: ServerResponse, rule: FaultRule): void {
  const ra = rule.retryAfter ?? null;
  if (ra === null) {
    answer(res, 429, JSON.stringify({ detail: 'Request was throttled.' }), 'application/json');
    return;
  }
  const words = ra === 1 ? '1 second' : `${ra} seconds`;
  answer(
    res,
    429,
    JSON.stringify({ detail: `Request was throttled. Expected available in ${words}.`, retry_after: ra }),
    'application/json',
    {
      'Retry-After': ra,
    },
  );
}

/**
 * Applies the fault picked for this request, if any. Resolves true when the fault has answered or
 * dropped the request (the caller must do nothing more), false when the caller goes on as usual
 * (no fault, a delay already waited out, or an after-fault now watching `res.end`).
 */
export async function applyFaults(
  state: SandboxState,
  target: FaultTarget,
  req: IncomingMessage,
  res: ServerResponse,
  hooks: FaultHooks = {},
): Promise<boolean> {
  const rule = pickFault(state, target, (req.method ?? 'GET').toUpperCase(), req.url ?? '/');
  if (!rule) return false;
  state.log(`sandbox: fault ${rule.kind} on ${req.method ?? ''} ${req.url ?? ''}`);
  switch (rule.kind) {
    case 'delay':
      await sleep(rule.ms ?? 200);
      return false;
    case 'drop-before':
      await drain(req);
      req.socket.destroy();
      return true;
    case '429':
      await drain(req);
      tooMany(res, rule);
      return true;
    case '500':
    case '502':
    case '503':
    case '504':
      await drain(req);
      statusReply(res, rule, target);
      return true;
    default:
      spoilReply(state, rule, res, hooks);
      return false;
  }
}

/** Intercepts the reply's `end` to apply an after-fault; counts replies lost after a charge. */
function spoilReply(state: SandboxState, rule: FaultRule, res: ServerResponse, hooks: FaultHooks): void {
  const chargesBefore = state.ledger.charges.length;
  const originalEnd = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
  const cut = (): void => {
    // Let what was written leave the socket, then hang up mid-reply.
    setTimeout(() => res.socket?.destroy(), 10);
  };
  res.end = ((chunk?: unknown) => {
    res.end = originalEnd as typeof res.end;
    const body =
      chunk === undefined || typeof chunk === 'function' ? Buffer.alloc(0) : Buffer.from(chunk as string | Uint8Array);
    const lostAfterCharge = state.ledger.charges.length > chargesBefore;
    // writeHead(status, headers) leaves nothing for getHeader(): judge the body itself.
    const isJson = body[0] === 0x7b || body[0] === 0x5b; // '{' or '['
    switch (rule.kind) {
      case 'drop-after':
        if (lostAfterCharge) faultTable(state).chargedThenLost++;
        // Headers are only buffered until the first write: destroying now sends nothing at all.
        res.socket?.destroy();
        return res;
      case 'malformed':
        if (isJson && body.length > 0) {
          // The work was done and charged, but the client cannot read the answer: lost after the charge.
          if (lostAfterCharge) faultTable(state).chargedThenLost++;
          // Same length (Content-Length is already fixed), no longer JSON.
          const bad = Buffer.from(body);
          bad[bad.length - 1] = 0x3c; // '<'
          return originalEnd(bad);
        }
        return originalEnd(body);
      case 'trickle':
        void trickle(res, body, rule.ms ?? 50, originalEnd);
        return res;
      case 'expire':
      case 'truncate': {
        // expire: the link dies now and the transfer in flight is cut short like a truncation.
        if (rule.kind === 'expire') hooks.expire?.();
        if (lostAfterCharge) faultTable(state).chargedThenLost++;
        const keep = Math.min(Math.max(0, body.length - 1), rule.bytes ?? Math.floor(body.length / 2));
        if (keep > 0) res.write(body.subarray(0, keep), cut);
        else {
          res.flushHeaders();
          cut();
        }
        return res;
      }
      default:
        return originalEnd(body);
    }
  }) as typeof res.end;
}

/** Sends the body in 8 pieces `gapMs` apart: slow, but complete. Stops if the client leaves. */
async function trickle(
  res: ServerResponse,
  body: Buffer,
  gapMs: number,
  end: (chunk?: unknown) => ServerResponse,
): Promise<void> {
  const size = Math.max(1, Math.ceil(body.length / 8));
  let at = 0;
  for (; at + size < body.length; at += size) {
    if (res.destroyed) return;
    res.write(body.subarray(at, at + size));
    await sleep(gapMs);
  }
  if (!res.destroyed) end(body.subarray(at));
}
