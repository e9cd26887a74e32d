/**
 * The state-changing work of subscriptions and campaigns: each builds the plan of its request, shows
 * the monitoring estimate, passes the money gate (so `--dry-run` prints the plan and sends nothing,
 * and `--max-credits` refuses before anything is sent), asks when the change cannot be undone, then
 * sends. Each returns the server's answer for the command to print, or null when nothing was sent
 * (or the server answered without a body).
 */
import { WORST_CASE_MILLI } from '../../contract/prices.js';
import {
  addCreatorsPlan,
  createPlan,
  creatorsIn,
  deletePlan,
  getOne,
  listeningPath,
  monitoringCost,
  removeCreatorsPlan,
  send,
  updatePlan,
  type ListeningKind,
  type ListeningRecord,
  type Monitoring,
} from '../api/listening.js';
import type { Plan } from '../api/plan.js';
import { formatCredits } from '../cost.js';
import type { HttpClient } from '../http/client.js';
import { campaignDuration } from './days.js';
import { creditCount, plural } from '../output/humanize.js';
import { balanceMilli, chargeLine, readRunway, type Runway } from './runway.js';

/** What the listening workflows use: the HTTP client, the terminal's side channel, the money gate, a clock. */
export interface ListeningPorts {
  /** The HTTP client, built on first use. */
  http(): Promise<HttpClient>;
  term: {
    notice(message: string): void;
    confirm(question: string): Promise<boolean>;
  };
  /** The money gate: true when the plan may be sent (false under `--dry-run`, after printing it). */
  gate(plan: Plan): Promise<boolean>;
  /** `--dry-run`: the estimate is not shown (the plan printed by the gate says it). */
  dryRun: boolean;
  now(): number;
  /** Told the account's monitoring after a change that charged (the summary's runway warning reuses it). */
  charged?(after: Runway): void;
}

/**
 * Sends a change that starts monitoring and says what it cost: the service charges the day of the new
 * creators at once and its answer does not say so, so the balance is read (free) before and after;
 * then the daily rate from now on and the runway. A failed read only leaves the line shorter.
 */
async function sendCharged(ports: ListeningPorts, plan: Plan): Promise<ListeningRecord | null> {
  const http = await ports.http();
  const before = await balanceMilli(http).catch(() => undefined);
  const result = await send(http, plan);
  const after = await readRunway(http).catch((): Runway => ({ balanceMilli: undefined, dailyMilli: undefined, creators: undefined }));
  const charged = before === undefined || after.balanceMilli === undefined ? undefined : before - after.balanceMilli;
  ports.term.notice(chargeLine(charged, after));
  ports.charged?.(after);
  return result;
}

/**
 * The line shown on stderr before monitoring starts: `creators x days x 0.3` with a known duration,
 * the cost per day when open-ended. Undefined when no creator (or an unknown number) is involved.
 */
export function monitoringNotice(m: Monitoring): string | undefined {
  if (m.creators === null || m.creators <= 0) return undefined;
  const { worstCaseMilli, costBasis } = monitoringCost(m);
  const perDay = formatCredits(WORST_CASE_MILLI.monitoringPerCreatorDay);
  const detail =
    m.days === undefined
      ? `${plural(m.creators, 'creator')} x ${perDay} = ${creditCount(worstCaseMilli ?? 0)} per day while monitored (open-ended: --max-credits is checked against one day`
      : `${costBasis ?? ''} = ${creditCount(worstCaseMilli ?? 0)} (at most`;
  return `Estimated monitoring cost: ${detail}; a creator already monitored costs nothing more).`;
}

/** Shows the monitoring estimate (not under `--dry-run`), then passes the gate. */
async function gateMonitoring(ports: ListeningPorts, plan: Plan, monitoring: Monitoring): Promise<boolean> {
  const notice = monitoringNotice(monitoring);
  if (notice !== undefined && !ports.dryRun) ports.term.notice(notice);
  return ports.gate(plan);
}

/** How many creators a subscription or campaign record says it watches; null when it does not say. */
export function creatorsCount(record: ListeningRecord): number | null {
  const n = typeof record.creators_count === 'string' && record.creators_count.trim() !== '' ? Number(record.creators_count) : record.creators_count;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}

/**
 * `... create`: its creators are monitored from today, billed per creator per day; a campaign's
 * `days` bound the estimate, a subscription is open-ended (priced per day).
 */
export async function createListening(ports: ListeningPorts, kind: ListeningKind, body: Record<string, unknown>): Promise<ListeningRecord | null> {
  const monitoring: Monitoring = { creators: creatorsIn(body), days: kind === 'campaign' && typeof body.days === 'number' ? body.days : undefined };
  const plan = createPlan(kind, body, monitoring);
  if (!(await gateMonitoring(ports, plan, monitoring))) return null;
  return monitoring.creators === null || monitoring.creators > 0 ? sendCharged(ports, plan) : send(await ports.http(), plan);
}

/**
 * `... update <id>`: PATCH. Resuming (`status: active`) restarts the daily charge for the creators
 * it watches, and a campaign's new `days` extend it: those are priced from a free read of the record
 * first (a resumed campaign for the days it has left). Any other change is free.
 */
export async function updateListening(ports: ListeningPorts, kind: ListeningKind, id: string, body: Record<string, unknown>): Promise<ListeningRecord | null> {
  const resumes = body.status === 'active';
  const extends_ = kind === 'campaign' && body.days !== undefined;
  if (!resumes && !extends_) {
    const plan = updatePlan(kind, id, body);
    if (!(await ports.gate(plan))) return null;
    return send(await ports.http(), plan);
  }
  const current = await getOne(await ports.http(), listeningPath(kind, id), { inputCheck: true });
  let monitoring: Monitoring = { creators: creatorsCount(current) };
  if (kind === 'campaign') {
    const left = typeof body.days === 'number' ? {} : campaignDuration(current, id, ports.now());
    monitoring = { ...monitoring, days: typeof body.days === 'number' ? body.days : left.days, daysNote: left.note };
  }
  const plan = updatePlan(kind, id, body, monitoring);
  if (!(await gateMonitoring(ports, plan, monitoring))) return null;
  // Resuming restarts the daily charge (today's is taken at once); extending only lengthens it.
  return resumes ? sendCharged(ports, plan) : send(await ports.http(), plan);
}

/**
 * `... add-creators <id>`: starts monitoring them. Creators added to a campaign are billed daily
 * until it ends (a free read of the campaign gives the days left); subscriptions are open-ended.
 */
export async function addCreators(ports: ListeningPorts, kind: ListeningKind, id: string, body: Record<string, unknown>): Promise<ListeningRecord | null> {
  const n = creatorsIn(body);
  const duration = kind === 'campaign' && n > 0 ? campaignDuration(await getOne(await ports.http(), listeningPath(kind, id), { inputCheck: true }), id, ports.now()) : {};
  const monitoring: Monitoring = { creators: n, days: duration.days, daysNote: duration.note };
  const plan = addCreatorsPlan(kind, id, body, monitoring);
  if (!(await gateMonitoring(ports, plan, monitoring))) return null;
  return sendCharged(ports, plan);
}

/**
 * `campaigns remove-creators <id>`: DELETE with the creators in the body, after a confirmation
 * (`--yes` answers it). Already-billed days are not refunded. `shownId` is the id as the user typed it.
 */
export async function removeCreators(
  ports: ListeningPorts,
  kind: ListeningKind,
  id: string,
  body: Record<string, unknown>,
  shownId: string,
): Promise<ListeningRecord | null> {
  const plan = removeCreatorsPlan(kind, id, body);
  if (!(await ports.gate(plan))) return null;
  if (!(await ports.term.confirm(`Stop monitoring ${plural(creatorsIn(body), 'creator')} in ${kind} ${shownId}?`))) {
    ports.term.notice('Nothing removed.');
    return null;
  }
  return send(await ports.http(), plan);
}

/** `subscriptions delete <id>` / `campaigns archive <id>` (both DELETE): asks first unless `--yes`. */
export async function deleteListening(ports: ListeningPorts, kind: ListeningKind, id: string, verb: 'Delete' | 'Archive'): Promise<ListeningRecord | null> {
  const plan = deletePlan(kind, id);
  if (!(await ports.gate(plan))) return null;
  if (!(await ports.term.confirm(`${verb} ${kind} ${id}? Monitoring of its creators stops.`))) {
    ports.term.notice(`Nothing was ${verb === 'Delete' ? 'deleted' : 'archived'}.`);
    return null;
  }
  const result = await send(await ports.http(), plan);
  ports.term.notice(`${verb === 'Delete' ? 'Deleted' : 'Archived'} ${kind} ${id}.`);
  return result;
}
