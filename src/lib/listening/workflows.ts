/** Every change passes the money gate (so `--dry-run` and `--max-credits` send nothing); null: nothing sent. */
import {
  addCreatorsPlan,
  createPlan,
  creatorsIn,
  deletePlan,
  getOne,
  listeningPath,
  monitoringCost,
  MONITORING_DAY_MILLI,
  removeCreatorsPlan,
  send,
  updatePlan,
  type ListeningKind,
  type ListeningRecord,
  type Monitoring,
} from '../api/listening.js';
import type { Plan } from '../api/plan.js';
import { formatCredits } from '../words.js';
import type { HttpClient } from '../http/client.js';
import { campaignDuration } from './days.js';
import { creditCount, plural } from '../words.js';
import { balanceMilli, chargeLine, readRunway, type Runway } from './runway.js';

export interface ListeningPorts {
  /** The HTTP client, built on first use. */
  http(): Promise<HttpClient>;
  term: {
    notice(message: string): void;
    confirm(question: string): Promise<boolean>;
  };
  gate(plan: Plan): Promise<boolean>;
  /** `--dry-run`: the estimate is not shown (the plan printed by the gate says it). */
  dryRun: boolean;
  now(): number;
  /** Told the account's monitoring after a change that charged (the summary's runway warning reuses it). */
  charged?(after: Runway): void;
  named: ListeningNames;
}

/** How the estimate names the run's credit budget: the caller's words (`--max-credits`). */
export interface ListeningNames {
  budget: string;
}

/** The charge is read as the balance's fall around the request (runway.ts); a failed read only shortens the line. */
async function sendCharged(ports: ListeningPorts, plan: Plan): Promise<ListeningRecord | null> {
  const http = await ports.http();
  const before = await balanceMilli(http).catch(() => undefined);
  const result = await send(http, plan);
  const after = await readRunway(http).catch(
    (): Runway => ({ balanceMilli: undefined, dailyMilli: undefined, creators: undefined }),
  );
  const charged = before === undefined || after.balanceMilli === undefined ? undefined : before - after.balanceMilli;
  ports.term.notice(chargeLine(charged, after));
  ports.charged?.(after);
  return result;
}

/** Undefined when no creator (or an unknown number) is involved. */
export function monitoringNotice(m: Monitoring, named: ListeningNames): string | undefined {
  if (m.creators === null || m.creators <= 0) return undefined;
  const { worstCaseMilli, costBasis } = monitoringCost(m);
  const perDay = formatCredits(MONITORING_DAY_MILLI);
  const detail =
    m.days === undefined
      ? `${plural(m.creators, 'creator')} x ${perDay} = ${creditCount(worstCaseMilli ?? 0)} per day while monitored (open-ended: ${named.budget} is checked against one day`
      : `${costBasis ?? ''} = ${creditCount(worstCaseMilli ?? 0)} (at most`;
  return `Estimated monitoring cost: ${detail}; a creator already monitored costs nothing more).`;
}

async function gateMonitoring(ports: ListeningPorts, plan: Plan, monitoring: Monitoring): Promise<boolean> {
  const notice = monitoringNotice(monitoring, ports.named);
  if (notice !== undefined && !ports.dryRun) ports.term.notice(notice);
  return ports.gate(plan);
}

export function creatorsCount(record: ListeningRecord): number | null {
  const n =
    typeof record.creators_count === 'string' && record.creators_count.trim() !== ''
      ? Number(record.creators_count)
      : record.creators_count;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}

/** A campaign's `days` bound the estimate; a subscription is open-ended (priced per day). */
export async function createListening(
  ports: ListeningPorts,
  kind: ListeningKind,
  body: Record<string, unknown>,
): Promise<ListeningRecord | null> {
  const monitoring: Monitoring = {
    creators: creatorsIn(body),
    days: kind === 'campaign' && typeof body.days === 'number' ? body.days : undefined,
  };
  const plan = createPlan(kind, body, monitoring);
  if (!(await gateMonitoring(ports, plan, monitoring))) return null;
  return monitoring.creators === null || monitoring.creators > 0
    ? sendCharged(ports, plan)
    : send(await ports.http(), plan);
}

/** Resuming and a campaign's new `days` are priced from a free read of the record first; any other change is free. */
export async function updateListening(
  ports: ListeningPorts,
  kind: ListeningKind,
  id: string,
  body: Record<string, unknown>,
): Promise<ListeningRecord | null> {
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

/** A campaign's creators are billed daily until it ends (a free read gives the days left). */
export async function addCreators(
  ports: ListeningPorts,
  kind: ListeningKind,
  id: string,
  body: Record<string, unknown>,
): Promise<ListeningRecord | null> {
  const n = creatorsIn(body);
  const duration =
    kind === 'campaign' && n > 0
      ? campaignDuration(
          await getOne(await ports.http(), listeningPath(kind, id), { inputCheck: true }),
          id,
          ports.now(),
        )
      : {};
  const monitoring: Monitoring = { creators: n, days: duration.days, daysNote: duration.note };
  const plan = addCreatorsPlan(kind, id, body, monitoring);
  if (!(await gateMonitoring(ports, plan, monitoring))) return null;
  return sendCharged(ports, plan);
}

/** Already-billed days are not refunded. `shownId` is the id as the user typed it. */
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

export async function deleteListening(
  ports: ListeningPorts,
  kind: ListeningKind,
  id: string,
  verb: 'Delete' | 'Archive',
): Promise<ListeningRecord | null> {
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
