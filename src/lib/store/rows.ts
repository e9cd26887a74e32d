/** One reading of the columns for both engines (PostgreSQL's BIGINTs arrive as strings). */
import type { AnswerKind, SpendEntry, StoredAnswer } from './types.js';

export type Row = Record<string, unknown>;

export function answerOf(r: Row): StoredAnswer {
  return {
    key: String(r.key),
    baseUrl: String(r.base_url),
    route: String(r.route),
    kind: r.kind as AnswerKind,
    platform: r.platform === null ? null : String(r.platform),
    subject: r.subject === null ? null : String(r.subject),
    request: wholeRequest(String(r.request), String(r.route)),
    body: String(r.body),
    status: r.status === 'not_found' ? 'not_found' : 'ok',
    creditsMilli: Number(r.credits_milli),
    records: Number(r.records),
    boughtAt: Number(r.bought_at),
    profile: String(r.profile),
  };
}

/**
 * A request is kept without its route (schema 5: the route is a column of its own, and the text was written twice
 * a record): `{"body":…,"query":…}`. The canonical text has its keys sorted, so the route is its last member.
 */
const routeMember = (route: string): string => `,"route":${JSON.stringify(route)}}`;

/** Only one whose route is its last member and the rest exactly body and query (an older row is read as it is). */
export function storedRequest(request: string, route: string): string {
  const tail = routeMember(route);
  if (!request.endsWith(tail)) return request;
  const kept = `${request.slice(0, -tail.length)}}`;
  return isBodyAndQuery(kept) ? kept : request;
}

export function wholeRequest(stored: string, route: string): string {
  return isBodyAndQuery(stored) ? `${stored.slice(0, -1)}${routeMember(route)}` : stored;
}

function isBodyAndQuery(text: string): boolean {
  if (!text.startsWith('{"body":')) return false;
  try {
    const keys = Object.keys(JSON.parse(text) as object);
    return keys.length === 2 && keys[0] === 'body' && keys[1] === 'query';
  } catch {
    return false;
  }
}

export function spendOf(r: Row): SpendEntry {
  return {
    origin: r.origin === null || r.origin === undefined ? null : String(r.origin),
    at: Number(r.at),
    profile: String(r.profile),
    baseUrl: String(r.base_url),
    command: String(r.command),
    route: String(r.route),
    platform: r.platform === null ? null : String(r.platform),
    creditsMilli: Number(r.credits_milli),
    records: Number(r.records),
    run: String(r.run),
  };
}

/** A WHERE clause of the conditions whose value is given (a filter left out is no condition). */
export function whereOf(conditions: readonly [string, unknown][]): { where: string; params: unknown[] } {
  const given = conditions.filter(([, value]) => value !== undefined);
  return {
    where: given.length > 0 ? `WHERE ${given.map(([sql]) => sql).join(' AND ')}` : '',
    params: given.map(([, value]) => value),
  };
}
