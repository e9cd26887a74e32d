/**
 * The store's money rules, written once over a `Dialect` (SQLite, PostgreSQL): answers and the creators they
 * bought, the spend log (an origin logged once), claims of purchases in flight, budget reservations, the
 * account's shared pace, and the holders' liveness.
 *
 * Liveness is one rule for claims and reservations, the file lock's (`io/process-alive.ts`): a holder names its
 * host, pid, boot id and start time and beats every `HEARTBEAT_MS` while alive. On its own host a holder is
 * alive while that process is (stopped or slow, it is never taken over); on another host while it beats
 * (silent `SILENT_MS`: taken over). Shared times come from the database's clock (`{now}`), so a machine with a
 * wrong clock neither stops the others nor loses its claims; a time further ahead than `AHEAD_MS` was written
 * by a wrong clock and is repaired where it is read.
 */
import { hostname } from 'node:os';
import { processAlive, processIdentity } from '../io/process-alive.js';
import { type Dialect, type Row, type Statement, type Tx } from './dialect.js';
import { answerOf, spendOf, storedRequest, whereOf } from './rows.js';
import { storedKey } from './schema.js';
import type {
  AnswerKind,
  AnswerRecord,
  BudgetCheck,
  BudgetRefusal,
  DeleteOptions,
  DoctorReport,
  Holder,
  KeptAnswer,
  KindCounts,
  ListFilter,
  LoadCounts,
  ReusableAnswer,
  SharedEntry,
  SpendEntry,
  SpendFilter,
  Store,
  StoredAnswer,
  StoreStats,
} from './types.js';
import type { SharedPace } from '../http/pacer.js';

/** How often a live holder says so. */
export const HEARTBEAT_MS = 5_000;
/** A holder on another host not heard from this long is gone (a killed run, a lost machine). */
export const SILENT_MS = 30_000;
/**
 * A shared time further ahead than this was written by a wrong clock (the longest honest one is a 429's wait, at most
 * 60 s).
 */
export const AHEAD_MS = 2 * 60_000;

const SLICE = 500;

/** This process as a holder of claims and reservations. */
export function holderOf(run: string): Holder {
  const id = processIdentity();
  return {
    run,
    pid: process.pid,
    host: hostname(),
    ...(id.boot ? { boot: id.boot } : {}),
    ...(id.start ? { start: id.start } : {}),
  };
}

function holderRow(r: Row): Holder & { seenAt: number } {
  return {
    run: String(r.run),
    pid: Number(r.pid),
    host: String(r.host),
    ...(r.boot ? { boot: String(r.boot) } : {}),
    ...(r.start ? { start: String(r.start) } : {}),
    seenAt: Number(r.seen_at),
  };
}

type Liveness = 'live' | 'dead' | 'silent' | 'ahead';

/** The one liveness rule (above); `now` is the database's clock. */
export function liveness(other: Holder & { seenAt: number }, me: Pick<Holder, 'host'>, now: number): Liveness {
  // A row from before holders beat (seen_at 0, the migration's default) names a bare pid: a process started since is
  // not it.
  if (other.host === me.host)
    return processAlive(other.pid, { boot: other.boot, start: other.start, seenAt: other.seenAt === 0 ? 0 : undefined })
      ? 'live'
      : 'dead';
  if (other.seenAt > now + AHEAD_MS) return 'ahead';
  return other.seenAt < now - SILENT_MS ? 'silent' : 'live';
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const sum = (v: unknown): number => Number(v ?? 0);

export abstract class StoreCore implements Store {
  private readonly beating = new Map<string, NodeJS.Timeout>();

  constructor(protected readonly d: Dialect) {}

  get engine(): Store['engine'] {
    return this.d.engine;
  }

  get location(): string {
    return this.d.location;
  }

  /** The schema version as `store stats` shows it. */
  protected abstract schemaVersion(): Promise<number>;

  async stats(): Promise<StoreStats> {
    return {
      engine: this.engine,
      location: this.location,
      schemaVersion: await this.schemaVersion(),
      sizeBytes: await this.d.sizeBytes(),
      ...(await this.counts()),
    };
  }

  private async one(kind: 'read' | 'write' | 'light', sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.d.batch(kind, [{ sql, params }]))[0] ?? [];
  }

  // ---- answers

  async answer(key: string, since: number, maxBytes = Number.MAX_SAFE_INTEGER): Promise<ReusableAnswer | undefined> {
    // Only the columns reuse reads: this runs once per request of a run answered from the store. A body over the
    // cap is not read at all (its size is, without loading it).
    const r = (
      await this.one(
        'read',
        'SELECT CASE WHEN octet_length(body) <= ? THEN body END AS body, octet_length(body) AS bytes, bought_at, records, credits_milli, status FROM answers WHERE key = ? AND bought_at >= ?',
        [maxBytes, key, Math.floor(since)],
      )
    )[0];
    return r ? reusableOf(r) : undefined;
  }

  async answers(
    keys: readonly string[],
    since: number,
    maxBytes = Number.MAX_SAFE_INTEGER,
  ): Promise<Map<string, ReusableAnswer>> {
    const out = new Map<string, ReusableAnswer>();
    if (keys.length === 0) return out;
    const within = this.d.inList('key', keys);
    const rows = await this.one(
      'read',
      `SELECT key, CASE WHEN octet_length(body) <= ? THEN body END AS body, octet_length(body) AS bytes, bought_at, records, credits_milli, status FROM answers WHERE ${within.sql} AND bought_at >= ?`,
      [maxBytes, ...(within.params ?? []), Math.floor(since)],
    );
    for (const r of rows) out.set(String(r.key), reusableOf(r));
    return out;
  }

  async answered(keys: readonly string[], since: number): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const within = this.d.inList('key', keys);
    const rows = await this.one(
      'read',
      `SELECT key FROM answers WHERE ${within.sql} AND bought_at >= ? AND (status <> 'not_found' OR credits_milli > 0)`,
      [...(within.params ?? []), Math.floor(since)],
    );
    return new Set(rows.map((r) => String(r.key)));
  }

  async holdsAny(baseUrl: string, route: string, since: number): Promise<boolean> {
    const rows = await this.one(
      'read',
      "SELECT 1 AS held FROM answers WHERE bought_at >= ? AND route = ? AND base_url = ? AND (status <> 'not_found' OR credits_milli > 0) LIMIT 1",
      [Math.floor(since), route, baseUrl],
    );
    return rows.length > 0;
  }

  /** The statements keeping an answer and the creators it bought (replacing what its key held). */
  private answerStatements(given: StoredAnswer, creators: readonly string[]): Statement[] {
    const a = { ...given, key: storedKey(given.key) };
    // Deleted then written, so a replaced answer lists as the newest written; the upsert covers a commit of
    // the same key by another run between the two.
    const out: Statement[] = [
      { sql: 'DELETE FROM bought_creators WHERE key = ?', params: [a.key] },
      { sql: 'DELETE FROM answers WHERE key = ?', params: [a.key] },
      {
        sql: `INSERT INTO answers (key, base_url, route, kind, platform, subject, request, body, status, credits_milli, records, bought_at, profile)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (key) DO UPDATE SET base_url = excluded.base_url, route = excluded.route, kind = excluded.kind, platform = excluded.platform,
                subject = excluded.subject, request = excluded.request, body = excluded.body, status = excluded.status, credits_milli = excluded.credits_milli,
                records = excluded.records, bought_at = excluded.bought_at, profile = excluded.profile`,
        params: [
          a.key,
          a.baseUrl,
          a.route,
          a.kind,
          a.platform,
          a.subject,
          storedRequest(a.request, a.route),
          a.body,
          a.status,
          Math.round(a.creditsMilli),
          a.records,
          Math.floor(a.boughtAt),
          a.profile,
        ],
      },
    ];
    if (a.platform !== null) {
      for (const handle of new Set(creators)) {
        if (handle === ownCreator(a)) continue;
        out.push({
          sql: 'INSERT INTO bought_creators (key, base_url, platform, handle, bought_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
          params: [a.key, a.baseUrl, a.platform, handle, Math.floor(a.boughtAt)],
        });
      }
    }
    return out;
  }

  /**
   * Logs a charge; one already logged under the same origin is not logged twice. Its names (run, profile, base URL,
   * command, route, platform) are a row of spend_names, written once (schema 6); the last statement is the entry's.
   */
  private spendStatements(e: SpendEntry): [Statement, Statement] {
    const names = [e.run, e.profile, e.baseUrl, e.command, e.route, e.platform ?? ''];
    return [
      {
        // Looked for first: an upsert alone would advance the id's sequence on every charge.
        sql: `INSERT INTO spend_names (run, profile, base_url, command, route, platform) SELECT ?, ?, ?, ?, ?, ?
              WHERE NOT EXISTS (SELECT 1 FROM spend_names WHERE ${NAMED}) ON CONFLICT DO NOTHING`,
        params: [...names, ...names],
      },
      {
        sql: `INSERT INTO spend (at, names, credits_milli, records, origin) SELECT ?, id, ?, ?, ? FROM spend_names WHERE ${NAMED}
              ON CONFLICT (origin) DO NOTHING`,
        params: [Math.floor(e.at), Math.round(e.creditsMilli), e.records, e.origin ?? null, ...names],
      },
    ];
  }

  /**
   * Keeps a paid answer, the creators it bought and its spend entry in one transaction (one round trip on a
   * server), and ends `release`'s claim on it in the same one.
   */
  async commit(
    a: StoredAnswer,
    creators: readonly string[],
    spend: SpendEntry | undefined,
    release?: Holder,
  ): Promise<void> {
    await this.commitMany([{ answer: a, creators, spend }], release);
  }

  async commitMany(items: readonly KeptAnswer[], release?: Holder): Promise<void> {
    const statements: Statement[] = [];
    for (const { answer: a, creators, spend } of items) {
      statements.push(...this.answerStatements(a, creators));
      if (spend) statements.push(...this.spendStatements(spend));
      if (release)
        statements.push({ sql: 'DELETE FROM claims WHERE key = ? AND run = ?', params: [a.key, release.run] });
    }
    if (statements.length > 0) await this.d.batch('write', statements);
  }

  async logSpend(entry: SpendEntry): Promise<void> {
    await this.d.batch('write', this.spendStatements(entry));
  }

  async boughtCreators(baseUrl: string, platform: string, since: number): Promise<string[]> {
    // A creator answer's own creator is the answer's subject (`ownCreator`), not a row of bought_creators.
    const rows = await this.one(
      'read',
      `SELECT handle FROM (SELECT handle, bought_at FROM bought_creators WHERE base_url = ? AND platform = ? AND bought_at >= ?
        UNION ALL SELECT subject AS handle, bought_at FROM answers WHERE platform = ? AND base_url = ? AND bought_at >= ? AND ${OWN_CREATOR}) b
        GROUP BY handle ORDER BY MAX(bought_at) DESC, handle`,
      [baseUrl, platform, Math.floor(since), platform, baseUrl, Math.floor(since)],
    );
    return rows.map((r) => String(r.handle));
  }

  // ---- claims

  /**
   * `claimed`, the live holder of the key, or (given `fresh`) the answer the store holds for it since then, in
   * one round trip: the claim is taken when no such answer is held and the key is free, held by this run, or
   * held by a holder on another host that fell silent (or wrote a time from a wrong clock); a holder on this
   * host is checked by its process identity and taken over only when dead.
   */
  async claim(
    key: string,
    holder: Holder,
    fresh?: { since: number; maxBytes?: number | undefined },
  ): Promise<'claimed' | Holder | { answer: ReusableAnswer }> {
    const who = [holder.run, holder.pid, holder.host, holder.boot ?? null, holder.start ?? null];
    const take = `ON CONFLICT (key) DO UPDATE SET run = excluded.run, pid = excluded.pid, host = excluded.host, boot = excluded.boot, start = excluded.start,
        claimed_at = excluded.claimed_at, seen_at = excluded.seen_at
      WHERE claims.run = excluded.run OR (claims.host <> excluded.host AND (claims.seen_at < {now} - ? OR claims.seen_at > {now} + ?))`;
    const since = fresh ? Math.floor(fresh.since) : 0;
    // An answer a later purchase reuses (a free not-found is its own run's only).
    const held = "FROM answers WHERE key = ? AND bought_at >= ? AND (status <> 'not_found' OR credits_milli > 0)";
    const statements: Statement[] = fresh
      ? [
          {
            sql: `SELECT CASE WHEN octet_length(body) <= ? THEN body END AS body, octet_length(body) AS bytes, bought_at, records, credits_milli, status ${held}`,
            params: [fresh.maxBytes ?? Number.MAX_SAFE_INTEGER, key, since],
          },
          {
            sql: `INSERT INTO claims (key, run, pid, host, boot, start, claimed_at, seen_at) SELECT ?, ?, ?, ?, ?, ?, {now}, {now} WHERE NOT EXISTS (SELECT 1 ${held}) ${take}`,
            params: [key, ...who, key, since, SILENT_MS, AHEAD_MS],
          },
        ]
      : [
          {
            sql: `INSERT INTO claims (key, run, pid, host, boot, start, claimed_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, {now}, {now}) ${take}`,
            params: [key, ...who, SILENT_MS, AHEAD_MS],
          },
        ];
    const holderAt = statements.length;
    statements.push({ sql: 'SELECT run, pid, host, boot, start, seen_at FROM claims WHERE key = ?', params: [key] });
    // Looked at again after the claim: on a server each statement sees what was committed when it began, and a
    // purchase committed (its claim released) while the claim waited for that row would otherwise be bought again.
    if (fresh) statements.push({ ...(statements[0] as Statement) });
    const out = await this.d.batch('light', statements);
    const found = fresh ? out[0]?.[0] : undefined;
    if (found) return { answer: reusableOf(found) };
    const r = out[holderAt]?.[0];
    if (r && String(r.run) === holder.run) {
      const late = fresh ? out[holderAt + 1]?.[0] : undefined;
      if (late) {
        await this.release(key, holder);
        return { answer: reusableOf(late) };
      }
      this.beat(holder.run);
      return 'claimed';
    }
    if (!r) return this.claim(key, holder, fresh);
    const other = holderRow(r);
    if (other.host !== holder.host || liveness(other, holder, 0) === 'live') return publicHolder(other);
    // A dead process of this host: taken over, unless another run took it first.
    const [, now] = await this.d.batch('light', [
      {
        sql: 'UPDATE claims SET run = ?, pid = ?, host = ?, boot = ?, start = ?, claimed_at = {now}, seen_at = {now} WHERE key = ? AND run = ?',
        params: [...who, key, other.run],
      },
      { sql: 'SELECT run, pid, host, boot, start, seen_at FROM claims WHERE key = ?', params: [key] },
    ]);
    const after = now?.[0];
    if (after && String(after.run) === holder.run) {
      this.beat(holder.run);
      return 'claimed';
    }
    return after ? publicHolder(holderRow(after)) : this.claim(key, holder, fresh);
  }

  async release(key: string, holder: Holder): Promise<void> {
    await this.one('light', 'DELETE FROM claims WHERE key = ? AND run = ?', [key, holder.run]);
  }

  // ---- budgets

  /**
   * Checks the budgets against the period's spend plus live runs' reservations and reserves `worstMilli`, in
   * one transaction serialised per profile on every machine: two runs cannot both pass a check one budget
   * allows only once.
   */
  async reserve(check: BudgetCheck, holder: Holder): Promise<BudgetRefusal | undefined> {
    const refusal = await this.d.tx('write', async (t) => {
      await this.d.lock(t, `creators:budget:${check.profile}`);
      const now = await this.clock(t);
      const runs = (
        await t.all('SELECT run, pid, host, boot, start, seen_at, reserved_milli FROM runs WHERE profile = ?', [
          check.profile,
        ])
      ).filter((r) => String(r.run) !== holder.run);
      const live = runs.filter((r) => liveness(holderRow(r), holder, now) === 'live');
      const gone = runs.filter((r) => !live.includes(r)).map((r) => String(r.run));
      if (gone.length > 0) {
        const within = this.d.inList('run', gone);
        await t.run(`DELETE FROM runs WHERE ${within.sql}`, within.params);
      }
      const spentBy = async (run: string): Promise<number> =>
        sum(
          (
            await t.all(
              'SELECT COALESCE({sum}(credits_milli), 0) AS s FROM spend WHERE names IN (SELECT id FROM spend_names WHERE run = ?)',
              [run],
            )
          )[0]?.s,
        );
      let reservedMilli = 0;
      for (const r of live) reservedMilli += Math.max(0, Number(r.reserved_milli) - (await spentBy(String(r.run))));
      for (const [period, budget] of [
        ['daily', check.daily],
        ['monthly', check.monthly],
      ] as const) {
        if (!budget) continue;
        const spentMilli = sum(
          (
            await t.all(
              'SELECT COALESCE({sum}(credits_milli), 0) AS s FROM spend WHERE names IN (SELECT id FROM spend_names WHERE profile = ?) AND at >= ?',
              [check.profile, Math.floor(budget.since)],
            )
          )[0]?.s,
        );
        if (spentMilli + reservedMilli + check.worstMilli > budget.limitMilli)
          return { period, limitMilli: budget.limitMilli, spentMilli, reservedMilli };
      }
      const prior = await spentBy(holder.run);
      await t.run(
        `INSERT INTO runs (run, profile, pid, host, boot, start, started_at, seen_at, reserved_milli) VALUES (?, ?, ?, ?, ?, ?, ?, {now}, ?)
         ON CONFLICT (run) DO UPDATE SET profile = excluded.profile, pid = excluded.pid, host = excluded.host, boot = excluded.boot, start = excluded.start,
           started_at = excluded.started_at, seen_at = excluded.seen_at, reserved_milli = excluded.reserved_milli`,
        [
          holder.run,
          check.profile,
          holder.pid,
          holder.host,
          holder.boot ?? null,
          holder.start ?? null,
          Math.floor(check.now),
          Math.round(prior + check.worstMilli),
        ],
      );
      return undefined;
    });
    if (!refusal) this.beat(holder.run);
    return refusal;
  }

  async endRun(run: string): Promise<void> {
    this.stopBeat(run);
    await this.d.batch('write', [
      { sql: 'DELETE FROM runs WHERE run = ?', params: [run] },
      { sql: 'DELETE FROM claims WHERE run = ?', params: [run] },
    ]);
  }

  /**
   * How far the store's clock is ahead of `localNow` (ms): a run's times of what it shares (when an answer was
   * bought, when a charge was logged, the budget's day) are the store's, so a machine with a wrong clock neither
   * buys again what a teammate bought nor passes a budget. About 0 for a file (its clock is the run's).
   */
  async clockOffset(localNow: () => number): Promise<number> {
    const before = localNow();
    const [rows] = await this.d.batch('read', [{ sql: 'SELECT {now} AS now' }]);
    const after = localNow();
    const offset = Number(rows?.[0]?.now) - (before + after) / 2;
    // A round trip's half and the clock's millisecond are noise, not a wrong clock.
    return Number.isFinite(offset) && Math.abs(offset) > Math.max(1000, after - before) ? Math.round(offset) : 0;
  }

  private async clock(t: Tx): Promise<number> {
    return Number((await t.all('SELECT {now} AS now'))[0]?.now);
  }

  /** While this process holds claims or a reservation of `run`, it says so every few seconds. */
  private beat(run: string): void {
    if (this.beating.has(run)) return;
    let pending = false;
    const timer = setInterval(() => {
      if (pending) return;
      pending = true;
      this.d
        .batch('light', [
          { sql: 'UPDATE claims SET seen_at = {now} WHERE run = ?', params: [run] },
          { sql: 'UPDATE runs SET seen_at = {now} WHERE run = ?', params: [run] },
        ])
        .catch(() => undefined)
        .finally(() => {
          pending = false;
        });
    }, HEARTBEAT_MS);
    timer.unref();
    this.beating.set(run, timer);
  }

  private stopBeat(run?: string): void {
    for (const [r, timer] of this.beating) {
      if (run !== undefined && r !== run) continue;
      clearInterval(timer);
      this.beating.delete(r);
    }
  }

  // ---- the shared pace

  /**
   * The GCRA arrival time of one account (base URL + profile), moved on by one interval in one statement.
   * Kept in the database's time and handed back in the caller's; a time a wrong clock left far ahead is
   * taken as now.
   */
  pace(account: string): SharedPace {
    return {
      take: async (intervalMs, toleranceMs, now) => {
        const [, rows] = await this.d.batch('light', [
          {
            sql: `INSERT INTO pace (account, tat) VALUES (?, {now} + CAST(? AS DOUBLE PRECISION))
                  ON CONFLICT (account) DO UPDATE SET tat = {greatest}(CASE WHEN pace.tat > {now} + ? THEN {now} ELSE pace.tat END, {now}) + CAST(? AS DOUBLE PRECISION)`,
            params: [account, intervalMs, AHEAD_MS, intervalMs],
          },
          { sql: 'SELECT tat, {now} AS now FROM pace WHERE account = ?', params: [account] },
        ]);
        const r = rows?.[0];
        if (!r) return undefined;
        const dbNow = Number(r.now);
        const slot = Math.max(dbNow, Number(r.tat) - intervalMs - toleranceMs);
        return now + (slot - dbNow);
      },
      delay: (waitMs) => {
        // This process waits all the same; the others learn of the 429 when the row lands.
        const ahead = Math.max(0, waitMs);
        return this.d
          .batch('light', [
            {
              sql: `INSERT INTO pace (account, tat) VALUES (?, {now} + CAST(? AS DOUBLE PRECISION))
                    ON CONFLICT (account) DO UPDATE SET tat = {greatest}(pace.tat, excluded.tat)`,
              params: [account, Math.min(ahead, AHEAD_MS)],
            },
          ])
          .then(
            () => undefined,
            () => undefined,
          );
      },
    };
  }

  // ---- what is shared, for `store doctor`

  /** Claims, reservations and paces, each with its holder's liveness (`dead`, `silent`, `ahead`: stuck). */
  async shared(me: Pick<Holder, 'host'> = { host: hostname() }): Promise<SharedEntry[]> {
    const [claims, runs, paces, clock] = await this.d.batch('read', [
      { sql: 'SELECT key, run, pid, host, boot, start, seen_at, claimed_at FROM claims ORDER BY claimed_at' },
      {
        sql: 'SELECT run, profile, pid, host, boot, start, seen_at, started_at, reserved_milli FROM runs ORDER BY started_at',
      },
      { sql: 'SELECT account, tat FROM pace ORDER BY account' },
      { sql: 'SELECT {now} AS now' },
    ]);
    const now = Number(clock?.[0]?.now);
    const out: SharedEntry[] = [];
    for (const r of claims ?? []) {
      const h = holderRow(r);
      out.push({
        kind: 'claim',
        id: String(r.key),
        holder: publicHolder(h),
        seenAt: h.seenAt,
        state: liveness(h, me, now),
        at: Number(r.claimed_at),
        reservedMilli: null,
        clock: now,
      });
    }
    for (const r of runs ?? []) {
      const h = holderRow(r);
      out.push({
        kind: 'reservation',
        id: String(r.run),
        holder: publicHolder(h),
        seenAt: h.seenAt,
        state: liveness(h, me, now),
        at: Number(r.started_at),
        reservedMilli: Number(r.reserved_milli),
        profile: String(r.profile),
        clock: now,
      });
    }
    for (const r of paces ?? []) {
      const tat = Number(r.tat);
      out.push({
        kind: 'pace',
        id: String(r.account),
        holder: undefined,
        seenAt: null,
        state: tat > now + AHEAD_MS ? 'ahead' : 'live',
        at: Math.round(tat),
        reservedMilli: null,
        clock: now,
      });
    }
    return out;
  }

  /** Clears what `shared` found stuck (or, with `all`, everything but this process's own); `dryRun` only says what. */
  async doctor(o: { dryRun?: boolean | undefined; all?: boolean | undefined } = {}): Promise<DoctorReport> {
    const entries = await this.shared();
    const mine = (e: SharedEntry): boolean => e.holder?.pid === process.pid && e.holder.host === hostname();
    // A pace has no holder: with `all` it is cleared only when a wrong clock left it ahead.
    const stuck = entries.filter((e) => e.state !== 'live' || (o.all && e.holder !== undefined && !mine(e)));
    if (!o.dryRun && stuck.length > 0) {
      const statements: Statement[] = [];
      for (const e of stuck) {
        // Only as it was seen: a holder that beat again in between keeps what it holds (unless `all` asked for it).
        const asSeen = e.state === 'live' ? '' : ' AND seen_at = ?';
        const seen = e.state === 'live' ? [] : [e.seenAt ?? 0];
        if (e.kind === 'claim')
          statements.push({
            sql: `DELETE FROM claims WHERE key = ? AND run = ?${asSeen}`,
            params: [e.id, e.holder?.run ?? '', ...seen],
          });
        else if (e.kind === 'reservation')
          statements.push({ sql: `DELETE FROM runs WHERE run = ?${asSeen}`, params: [e.id, ...seen] });
        else
          statements.push({
            sql: 'UPDATE pace SET tat = {now} WHERE account = ? AND tat > {now} + ?',
            params: [e.id, AHEAD_MS],
          });
      }
      await this.d.batch('write', statements);
    }
    return { entries, cleared: o.dryRun ? 0 : stuck.length, stuck: stuck.length };
  }

  // ---- administration

  async *list(f: ListFilter): AsyncIterable<StoredAnswer> {
    const { where, params } = whereOf([
      ['platform = ?', f.platform],
      ['kind = ?', f.kind],
      ['bought_at >= ?', f.since === undefined ? undefined : Math.floor(f.since)],
      ['bought_at < ?', f.until === undefined ? undefined : Math.floor(f.until)],
      ['base_url = ?', f.baseUrl],
    ]);
    // Newest first in slices (keyset on bought_at and the order written), so a large store is never held in memory at
    // once.
    let after: [number, number] | undefined;
    for (;;) {
      const cond = after
        ? `${where ? `${where} AND` : 'WHERE'} (bought_at < ? OR (bought_at = ? AND {seq} < ?))`
        : where;
      const args = after ? [...params, after[0], after[0], after[1]] : params;
      const rows = await this.one(
        'read',
        `SELECT *, {seq} AS seq_ FROM answers ${cond} ORDER BY bought_at DESC, {seq} DESC LIMIT ${SLICE}`,
        args,
      );
      for (const r of rows) yield answerOf(r);
      if (rows.length < SLICE) return;
      const last = rows[rows.length - 1] as Row;
      after = [Number(last.bought_at), Number(last.seq_)];
    }
  }

  async *spend(f: SpendFilter): AsyncIterable<SpendEntry> {
    const { where, params } = whereOf([
      ['at >= ?', f.since === undefined ? undefined : Math.floor(f.since)],
      ['at < ?', f.until === undefined ? undefined : Math.floor(f.until)],
      ['profile = ?', f.profile],
      ['base_url = ?', f.baseUrl],
    ]);
    const from = await this.spendLog();
    let after: [number, number] | undefined;
    for (;;) {
      const cond = after ? `${where ? `${where} AND` : 'WHERE'} (at > ? OR (at = ? AND id > ?))` : where;
      const args = after ? [...params, after[0], after[0], after[1]] : params;
      const rows = await this.one('read', `SELECT * FROM ${from} ${cond} ORDER BY at, id LIMIT ${SLICE}`, args);
      for (const r of rows) yield spendOf(r);
      if (rows.length < SLICE) return;
      const last = rows[rows.length - 1] as Row;
      after = [Number(last.at), Number(last.id)];
    }
  }

  /** The spend log in its columns from before schema 6: a store only read is read as it is (not migrated). */
  private async spendLog(): Promise<string> {
    return (await this.schemaVersion()) < 6 ? 'spend' : SPEND_NAMED;
  }

  /** Sums read as the engine's exact (or float) total: a huge charge an older build logged cannot overflow them. */
  protected async counts(): Promise<Pick<StoreStats, 'answers' | 'spend'>> {
    const [kinds, spend] = await this.d.batch('read', [
      {
        sql: 'SELECT kind, COUNT(*) AS n, COALESCE({sum}(records), 0) AS records, COALESCE({sum}(credits_milli), 0) AS credits, MIN(bought_at) AS oldest, MAX(bought_at) AS newest FROM answers GROUP BY kind ORDER BY kind',
      },
      {
        sql: 'SELECT COUNT(*) AS n, COALESCE({sum}(credits_milli), 0) AS credits, MIN(at) AS oldest, MAX(at) AS newest FROM spend',
      },
    ]);
    const s = spend?.[0] ?? {};
    return {
      answers: (kinds ?? []).map((k) => ({
        kind: k.kind as AnswerKind,
        count: Number(k.n),
        records: sum(k.records),
        creditsMilli: sum(k.credits),
        oldest: num(k.oldest),
        newest: num(k.newest),
      })),
      spend: { entries: Number(s.n ?? 0), creditsMilli: sum(s.credits), oldest: num(s.oldest), newest: num(s.newest) },
    };
  }

  async prune(before: number, o: DeleteOptions = {}): Promise<number> {
    if (o.dryRun)
      return Number(
        (await this.one('read', 'SELECT COUNT(*) AS n FROM answers WHERE bought_at < ?', [Math.floor(before)]))[0]?.n ??
          0,
      );
    return this.d.tx('write', async (t) => {
      await t.run('DELETE FROM bought_creators WHERE key IN (SELECT key FROM answers WHERE bought_at < ?)', [
        Math.floor(before),
      ]);
      return t.run('DELETE FROM answers WHERE bought_at < ?', [Math.floor(before)]);
    });
  }

  async forget(platform: string, subject: string, o: DeleteOptions = {}): Promise<KindCounts> {
    const about = `SELECT key, kind FROM answers WHERE platform = ? AND subject = ?
      UNION SELECT a.key, a.kind FROM answers a JOIN bought_creators b ON b.key = a.key WHERE b.platform = ? AND b.handle = ?`;
    const args = [platform, subject, platform, subject];
    const counts = (rows: Row[]): KindCounts => ({
      creator: rows.filter((r) => r.kind === 'creator').length,
      page: rows.filter((r) => r.kind === 'page').length,
    });
    if (o.dryRun) return counts(await this.one('read', about, args));
    return this.d.tx('write', async (t) => {
      const rows = await t.all(about, args);
      const keys = rows.map((r) => String(r.key));
      if (keys.length > 0) {
        const within = this.d.inList('key', keys);
        await t.run(`DELETE FROM bought_creators WHERE ${within.sql}`, within.params);
        await t.run(`DELETE FROM answers WHERE ${within.sql}`, within.params);
      }
      return counts(rows);
    });
  }

  async storeId(): Promise<string> {
    return String((await this.one('read', "SELECT value FROM meta WHERE name = 'store_id'"))[0]?.value ?? '');
  }

  async dumpAnswers(after: string | undefined, limit: number): Promise<AnswerRecord[]> {
    const rows = await this.one('read', 'SELECT * FROM answers WHERE key > ? ORDER BY key LIMIT ?', [
      after ?? '',
      limit,
    ]);
    if (rows.length === 0) return [];
    const within = this.d.inList(
      'key',
      rows.map((r) => String(r.key)),
    );
    const creators = await this.one(
      'read',
      `SELECT key, handle FROM bought_creators WHERE ${within.sql} ORDER BY handle`,
      within.params,
    );
    return rows.map((r) => {
      const answer = answerOf(r);
      const own = ownCreator(answer);
      const rest = creators.filter((c) => c.key === r.key).map((c) => String(c.handle));
      return { answer, creators: own === undefined ? rest : [own, ...rest] };
    });
  }

  async dumpSpend(after: number | undefined, limit: number): Promise<{ id: number; entry: SpendEntry }[]> {
    const id = await this.storeId();
    const from = await this.spendLog();
    return (await this.one('read', `SELECT * FROM ${from} WHERE id > ? ORDER BY id LIMIT ?`, [after ?? 0, limit])).map(
      (r) => {
        const entry = spendOf(r);
        return { id: Number(r.id), entry: { ...entry, origin: entry.origin ?? `${id}:${Number(r.id)}` } };
      },
    );
  }

  /**
   * Copies records in (`store push`, an outbox drained) in one transaction: an answer replaces its key's only
   * when bought later, each origin is logged once, so a copy run twice adds nothing twice.
   */
  async load(answers: readonly AnswerRecord[], spend: readonly SpendEntry[]): Promise<LoadCounts> {
    return this.d.tx('write', async (t) => {
      let added = 0;
      for (const { answer: a, creators } of answers) {
        const held = (await t.all('SELECT bought_at FROM answers WHERE key = ?', [storedKey(a.key)]))[0];
        if (held && Number(held.bought_at) >= a.boughtAt) continue;
        for (const s of this.answerStatements(a, creators)) await t.run(s.sql, s.params);
        added++;
      }
      let logged = 0;
      for (const e of spend) {
        const [names, entry] = this.spendStatements(e);
        await t.run(names.sql, names.params);
        if ((await t.run(entry.sql, entry.params)) > 0) logged++;
      }
      return { answers: added, spend: logged };
    });
  }

  async close(): Promise<void> {
    this.stopBeat();
    await this.d.close();
  }
}

/**
 * The creator a creator answer bought, as the purchase memory names it (found, by handle): read from the answer
 * itself (schema 5), so bought_creators holds only the creators of pages. `OWN_CREATOR` is the same rule in SQL.
 */
function ownCreator(a: Pick<StoredAnswer, 'kind' | 'status' | 'subject' | 'platform'>): string | undefined {
  return a.kind === 'creator' && a.status === 'ok' && a.platform !== null && a.subject && !a.subject.includes('@')
    ? a.subject
    : undefined;
}

/** A spend entry's names as spendStatements gives them. */
const NAMED = 'run = ? AND profile = ? AND base_url = ? AND command = ? AND route = ? AND platform = ?';

/** Spend entries with their names, as `spendOf` reads them (a platform of none is kept as ''). */
const SPEND_NAMED = `(SELECT s.id, s.at, n.profile, n.base_url, n.command, n.route, NULLIF(n.platform, '') AS platform,
  s.credits_milli, s.records, n.run, s.origin FROM spend s JOIN spend_names n ON n.id = s.names) spend`;

const OWN_CREATOR = "kind = 'creator' AND status = 'ok' AND subject <> '' AND subject NOT LIKE '%@%'";

function reusableOf(r: Row): ReusableAnswer {
  return {
    body: String(r.body ?? ''),
    bytes: Number(r.bytes),
    boughtAt: Number(r.bought_at),
    records: Number(r.records),
    creditsMilli: Number(r.credits_milli),
    status: r.status === 'not_found' ? 'not_found' : 'ok',
  };
}

function publicHolder(h: Holder & { seenAt?: number }): Holder {
  return {
    run: h.run,
    pid: h.pid,
    host: h.host,
    ...(h.boot ? { boot: h.boot } : {}),
    ...(h.start ? { start: h.start } : {}),
  };
}
