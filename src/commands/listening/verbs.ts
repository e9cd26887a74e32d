/**
 * The verbs subscriptions and campaigns share (list, get, creators, add/remove creators, delete or
 * archive). Each verb file is a thin `run` that picks the kind and calls one of these.
 */
import type { Context } from '../../app/context.js';
import { getOne, listAll, listeningPath, send, type ListeningKind } from '../../lib/api/listening.js';
import { guardCost } from '../../app/legacy.js';
import { confirm } from '../../lib/io/prompt.js';
import { printItem, printList, type ColumnSpec } from '../../lib/output/index.js';
import { campaignDuration } from './campaigns/fields.js';
import { bodyFlags, buildBody, COLUMNS, creatorRefs, guardMonitoring, idArg, LABEL } from './shared.js';

const CREATOR_COLUMNS: Record<ListeningKind, ColumnSpec[]> = {
  subscription: [
    { path: 'platform', header: 'Platform' },
    { path: 'platform_id', header: 'Creator' },
    { path: 'added_at', header: 'Added', kind: 'date' },
    { path: 'events_count', header: 'Events', kind: 'count' },
  ],
  campaign: [
    { path: 'platform', header: 'Platform' },
    { path: 'platform_id', header: 'Creator' },
    { path: 'added_at', header: 'Added', kind: 'date' },
    { path: 'posts_count', header: 'Posts', kind: 'count' },
  ],
};

/** `... list`: every subscription or campaign, all pages. */
export async function listKind(ctx: Context, kind: ListeningKind): Promise<void> {
  const output = await ctx.output();
  const http = await ctx.http();
  const count = await printList(ctx.io, output, listAll(http, listeningPath(kind)), COLUMNS[kind]);
  if (count === 0 && output.format === 'table') ctx.notice(`No ${LABEL[kind]}s.`);
}

/** `... get <id>`. */
export async function getKind(ctx: Context, kind: ListeningKind, args: string[]): Promise<void> {
  const id = idArg(args, LABEL[kind]);
  const path = listeningPath(kind, id);
  const output = await ctx.output();
  const http = await ctx.http();
  await printItem(ctx.io, output, await getOne(http, path), COLUMNS[kind]);
}

/** `... creators <id>`: the creators watched, all pages. */
export async function listCreators(ctx: Context, kind: ListeningKind, args: string[]): Promise<void> {
  const path = listeningPath(kind, idArg(args, LABEL[kind]), 'creators');
  const output = await ctx.output();
  const http = await ctx.http();
  const count = await printList(ctx.io, output, listAll(http, path), CREATOR_COLUMNS[kind]);
  if (count === 0 && output.format === 'table') ctx.notice(`No creators in ${LABEL[kind]} ${args[0]}.`);
}

/** `... add-creators <id> [handle...]`: starts monitoring them (billed per creator per day). */
export async function addCreators(ctx: Context, kind: ListeningKind, args: string[], opts: Record<string, unknown>): Promise<void> {
  const [rawId, ...handles] = args;
  const id = idArg([rawId ?? ''], LABEL[kind]);
  const path = listeningPath(kind, id, 'creators');
  const refs = await creatorRefs(ctx, handles, opts, true);
  const body = await buildBody(ctx, bodyFlags(opts), { creators: refs.length > 0 ? refs : undefined });
  const output = await ctx.output();
  const http = await ctx.http();
  const n = Array.isArray(body.creators) ? body.creators.length : 0;
  // Creators added to a campaign are monitored (and billed daily) until it ends: a free read of
  // the campaign gives the days left. Subscriptions are open-ended: priced per day.
  const duration = kind === 'campaign' && n > 0 ? campaignDuration(await getOne(http, listeningPath(kind, id)), id, ctx.deps.now()) : {};
  if (!(await guardMonitoring(ctx, http, { method: 'POST', path, body, creators: n, days: duration.days, daysNote: duration.note }))) return;
  const result = await send(http, 'POST', path, body);
  if (result) await printItem(ctx.io, output, result);
}

/** `campaigns remove-creators <id> [handle...]`: DELETE with a body. Already-billed days are not refunded. */
export async function removeCreators(ctx: Context, kind: ListeningKind, args: string[], opts: Record<string, unknown>): Promise<void> {
  const [rawId, ...handles] = args;
  const path = listeningPath(kind, idArg([rawId ?? ''], LABEL[kind]), 'creators');
  const refs = await creatorRefs(ctx, handles, opts, true);
  const body = await buildBody(ctx, bodyFlags(opts), { creators: refs.length > 0 ? refs : undefined });
  const output = await ctx.output();
  const http = await ctx.http();
  const url = `${http.baseUrl.href.replace(/\/$/, '')}/public/v1/${path}`;
  if (!(await guardCost(ctx, { method: 'DELETE', url, body, worstCaseMilli: 0 }))) return;
  const n = Array.isArray(body.creators) ? body.creators.length : 0;
  if (!(await confirm(ctx, `Stop monitoring ${n} creator(s) in ${LABEL[kind]} ${args[0]}?`))) {
    ctx.notice('Nothing removed.');
    return;
  }
  const result = await send(http, 'DELETE', path, body);
  if (result) await printItem(ctx.io, output, result);
}

/** `subscriptions delete <id>` / `campaigns archive <id>`: asks first unless --yes. */
export async function deleteKind(ctx: Context, kind: ListeningKind, args: string[], verb: 'Delete' | 'Archive'): Promise<void> {
  const id = idArg(args, LABEL[kind]);
  const path = listeningPath(kind, id);
  const output = await ctx.output();
  const http = await ctx.http();
  const url = `${http.baseUrl.href.replace(/\/$/, '')}/public/v1/${path}`;
  if (!(await guardCost(ctx, { method: 'DELETE', url, worstCaseMilli: 0 }))) return;
  if (!(await confirm(ctx, `${verb} ${LABEL[kind]} ${id}? Monitoring of its creators stops.`))) {
    ctx.notice(`Nothing was ${verb === 'Delete' ? 'deleted' : 'archived'}.`);
    return;
  }
  const result = await send(http, 'DELETE', path);
  ctx.notice(`${verb === 'Delete' ? 'Deleted' : 'Archived'} ${LABEL[kind]} ${id}.`);
  if (result) await printItem(ctx.io, output, result, COLUMNS[kind]);
}
