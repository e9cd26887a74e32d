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
    request: String(r.request),
    body: String(r.body),
    status: r.status === 'not_found' ? 'not_found' : 'ok',
    creditsMilli: Number(r.credits_milli),
    records: Number(r.records),
    boughtAt: Number(r.bought_at),
    profile: String(r.profile),
  };
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
