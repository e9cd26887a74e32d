/**
 * The fault table of one sandbox: the rules in force, the seeded stream that decides probabilistic
 * rules, and the counters behind `GET /_sandbox/faults` (how many faults of each kind were injected,
 * and how many replies were lost after the handler had already charged for them). The counters
 * survive rule changes so a whole run can be reported at the end.
 */
import { streamFor, type Rng } from '../random.js';
import { slot, type SandboxState } from '../state.js';
import { describeRule, pathMatches, type FaultKind, type FaultRule, type FaultTarget } from './rules.js';

interface ActiveRule {
  rule: FaultRule;
  matched: number;
  injected: number;
}

export interface FaultTable {
  rules: ActiveRule[];
  rng: Rng;
  /** Faults injected, by kind, since the sandbox started (or the last reset). */
  injected: Partial<Record<FaultKind, number>>;
  /** Requests that reached a listener while rules were in force. */
  requests: number;
  /** After-faults whose request had been charged by the handler: the client never saw that reply. */
  chargedThenLost: number;
}

export function faultTable(state: SandboxState): FaultTable {
  return slot(state, 'faults', () => ({
    rules: [],
    rng: streamFor(state.seed, 'faults'),
    injected: {},
    requests: 0,
    chargedThenLost: 0,
  }));
}

/** Replaces (or with `append`, extends) the rules in force. Counters are kept. */
export function setFaults(state: SandboxState, rules: FaultRule[], append = false): void {
  const table = faultTable(state);
  const fresh = rules.map((rule) => ({ rule, matched: 0, injected: 0 }));
  table.rules = append ? [...table.rules, ...fresh] : fresh;
}

/** Clears the counters (rules stay). */
export function resetFaultCounters(state: SandboxState): void {
  const table = faultTable(state);
  table.injected = {};
  table.requests = 0;
  table.chargedThenLost = 0;
  for (const r of table.rules) r.injected = r.matched = 0;
}

/**
 * The fault to inject into this request, if any: the first rule that matches and fires. Never
 * fires on the sandbox's own `/_sandbox/` control surface.
 */
export function pickFault(
  state: SandboxState,
  target: FaultTarget,
  method: string,
  pathAndQuery: string,
): FaultRule | undefined {
  const table = state.slots.get('faults') as FaultTable | undefined;
  if (!table || table.rules.length === 0 || pathAndQuery.startsWith('/_sandbox/')) return undefined;
  table.requests++;
  for (const active of table.rules) {
    const { rule } = active;
    if (rule.target !== target) continue;
    if (rule.method !== '*' && rule.method !== method && !(rule.method === 'GET' && method === 'HEAD')) continue;
    if (!pathMatches(rule.path, pathAndQuery)) continue;
    active.matched++;
    if (rule.after !== undefined && active.matched <= rule.after) continue;
    if (rule.count !== undefined && active.injected >= rule.count) continue;
    if (rule.p !== undefined && !(table.rng() < rule.p)) continue;
    active.injected++;
    table.injected[rule.kind] = (table.injected[rule.kind] ?? 0) + 1;
    return rule;
  }
  return undefined;
}

/** The figures for `GET /_sandbox/faults`, the soak script and the README. */
export function describeFaults(state: SandboxState): Record<string, unknown> {
  const table = faultTable(state);
  const total = Object.values(table.injected).reduce((a, b) => a + (b ?? 0), 0);
  return {
    rules: table.rules.map((r) => ({
      ...r.rule,
      spec: describeRule(r.rule),
      matched: r.matched,
      injected: r.injected,
    })),
    injected: { ...table.injected },
    total,
    requests: table.requests,
    charged_then_lost: table.chargedThenLost,
  };
}
