/**
 * The sandbox's latency model: how long the service takes to answer, per route family, as a median
 * and a spread (`discovery=1.2s±0.5,enrich=2s±1,default=150ms`). A reply is held for its drawn time
 * after the handler ran (so the request was counted and charged on arrival, as the service does) and
 * before it is sent, on a timer: other requests go on meanwhile. Draws come from a stream seeded by
 * the sandbox seed, so a run with the same seed and the same arrival order sees the same latencies.
 * The default is no latency at all (tests); the sandbox's own `/_sandbox/` routes and 429s are never held.
 */
import { streamFor, type Rng } from './random.js';
import { slot, type SandboxState } from './state.js';

export const LATENCY_FAMILIES = [
  'discovery',
  'dictionaries',
  'enrich',
  'content',
  'batch',
  'listening',
  'default',
] as const;
export type LatencyFamily = (typeof LATENCY_FAMILIES)[number];

export interface LatencyRange {
  /** Median in milliseconds. */
  medianMs: number;
  /** Draws are uniform in median ± spread (never below 0), so the median stays the median. */
  spreadMs: number;
}

export type LatencyModel = Partial<Record<LatencyFamily, LatencyRange>>;

/**
 * `--latency real`: a guess, not a measurement. The official clients give ordinary calls 30 s and
 * downloads 120 s; searches and enrichments are the slow calls, dictionaries and account reads quick.
 */
export const REAL_LATENCY_SPEC =
  'discovery=1.2s±0.5,enrich=2s±1,content=1.5s±0.7,batch=400ms±200,listening=400ms±200,dictionaries=200ms±100,default=150ms±50';

export class LatencySpecError extends Error {}

/** Which family a request path belongs to (paths under `/public/v1/` only; others are not held). */
export function latencyFamily(path: string): LatencyFamily | undefined {
  if (!path.startsWith('/public/v1/')) return undefined;
  const rest = path.slice('/public/v1/'.length);
  if (rest.startsWith('discovery/classifier/')) return 'dictionaries';
  if (rest.startsWith('discovery/')) return 'discovery';
  // The n8n node's legacy batch routes are batch calls, not single enrichments.
  if (rest.startsWith('creators/enrich/public/')) return 'batch';
  if (rest.startsWith('creators/enrich/')) return 'enrich';
  if (rest.startsWith('creators/')) return 'content';
  if (rest.startsWith('enrichment/batch/')) return 'batch';
  if (rest.startsWith('social/listening/') || rest.startsWith('listening/')) return 'listening';
  return 'default';
}

/** A duration and its unit; a bare number takes `bareUnit`. */
function parseDuration(text: string, what: string, bareUnit: 'ms' | 's'): { ms: number; unit: 'ms' | 's' } {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(text.trim());
  if (!m)
    throw new LatencySpecError(`'${text}' in ${what} is not a duration: expected e.g. 150ms, 1.2s or 2 (seconds).`);
  const n = Number(m[1]);
  const unit = (m[2] as 'ms' | 's' | undefined) ?? bareUnit;
  return { ms: Math.round(unit === 'ms' ? n : n * 1000), unit };
}

/**
 * Parses `family=median[±spread],...` (`+-` for `±`; units ms or s: a bare median is seconds, a bare
 * spread has the median's unit) or `real`.
 * An empty spec or `0` means no latency.
 */
export function parseLatencySpec(spec: string): LatencyModel {
  const text = spec.trim();
  if (text === '' || text === '0' || text === 'none') return {};
  if (text === 'real') return parseLatencySpec(REAL_LATENCY_SPEC);
  const model: LatencyModel = {};
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    // A lone value applies to every family.
    const name = eq < 0 ? 'default' : item.slice(0, eq).trim();
    const value = eq < 0 ? item : item.slice(eq + 1);
    if (!(LATENCY_FAMILIES as readonly string[]).includes(name)) {
      throw new LatencySpecError(
        `unknown route family '${name}': expected one of ${LATENCY_FAMILIES.join(', ')}, or 'real'.`,
      );
    }
    const [median, spread, extra] = value.split(/±|\+-/);
    if (extra !== undefined) throw new LatencySpecError(`'${value}' has more than one ±.`);
    // A bare median is seconds; a bare spread has the median's unit (`1.2s±0.5`, `150ms±50`).
    const mid = parseDuration(median ?? '', name, 's');
    const range = { medianMs: mid.ms, spreadMs: spread === undefined ? 0 : parseDuration(spread, name, mid.unit).ms };
    model[name as LatencyFamily] = range;
  }
  return model;
}

/** The spec back as text, for the dry run and the start-up lines. */
export function describeLatency(model: LatencyModel): string {
  const ms = (n: number): string => (n >= 1000 ? `${n / 1000}s` : `${n}ms`);
  const parts = LATENCY_FAMILIES.filter((f) => model[f]).map((f) => {
    const r = model[f] as LatencyRange;
    return `${f}=${ms(r.medianMs)}${r.spreadMs > 0 ? `±${ms(r.spreadMs)}` : ''}`;
  });
  return parts.length > 0 ? parts.join(',') : 'none';
}

interface LatencyState {
  model: LatencyModel;
  rng: Rng;
}

function latencyState(state: SandboxState): LatencyState {
  return slot(state, 'latency', () => ({ model: {}, rng: streamFor(state.seed, 'latency') }));
}

/** Sets the model in force (replacing any earlier one). */
export function setLatency(state: SandboxState, model: LatencyModel): void {
  latencyState(state).model = model;
}

/** How long to hold the reply to this path, in ms (0 without a model). */
export function drawLatency(state: SandboxState, path: string): number {
  const table = state.slots.get('latency') as LatencyState | undefined;
  if (!table) return 0;
  const family = latencyFamily(path);
  if (!family) return 0;
  const range = table.model[family] ?? table.model.default;
  if (!range || (range.medianMs === 0 && range.spreadMs === 0)) return 0;
  const draw = range.medianMs + (table.rng() * 2 - 1) * range.spreadMs;
  return Math.max(0, Math.round(draw));
}
