/**
 * Sandbox routes: batch enrichment (api-contract §9) and its `/_sandbox/batch` control surface.
 *
 *   POST /public/v1/enrichment/batch/                    multipart: file (one column `handle` or `email`,
 *        at most 10 MB, RFC 4180: a quoted value may hold commas and line breaks), enrichment_mode,
 *        platform, email_required, include_lookalikes, include_audience_data, metadata
 *        (min_followers and exclude_platforms are accepted and ignored, as the service does)
 *        -> {batch_id, status: "validating", created_at, ...}
 *   GET  /public/v1/enrichment/batch/:id/status/         status record (credits_used as a string)
 *   GET  /public/v1/enrichment/batch/:id/                results: CSV, or `?format=json` [{input_value, status, enrichment_data}]
 *   GET  /public/v1/enrichment/batch/:id/download/       {download_url (file host, another origin), filename,
 *        expires_in, expires_at, batch_id, total_results, invalid_records}
 *   POST /public/v1/enrichment/batch/:id/resume/         continue a paused or failed job (free)
 *   GET|POST /_sandbox/batch                             settings, `advanceSeconds`, fault injection
 *
 * The legacy routes the official n8n node still sends (api-contract §9.1-9.5), on the same jobs:
 *   POST /public/v1/creators/enrich/public/              JSON {"emails": [...]}: an email batch, basic mode
 *   GET  /public/v1/creators/enrich/public/:id/          the status record
 *   GET  /public/v1/creators/enrich/public/:id/download/ the download link
 *   POST /public/v1/creators/enrich/public/:id/resume/   resume
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { boundaryOf, parseMultipart, type FormPart } from '../batch/multipart.js';
import { BATCH_PLATFORMS } from '../../contract/platforms.js';
import { advance, batchNow, batchWorld, configureBatch, hasResults, resume, type BatchJob } from '../batch/jobs.js';
import { presign, resultsCsv } from '../batch/files.js';
import { resultRow } from '../batch/results.js';
import { parseJson } from '../body.js';
import { ApiError, errorText, fieldError, fieldErrors, json, notFound, type Reply } from '../respond.js';
import type { RouteContext, Router } from '../router.js';
import { randomBytes } from 'node:crypto';
import { BATCH_FILE_MB, LEGACY_BATCH_EMAILS_MAX } from '../../contract/limits.js';

const MODES = ['raw', 'full', 'basic', 'advanced'];
/** Most batch time one `advanceSeconds` may move: a year and a day. */
const MAX_ADVANCE_SECONDS = 366 * 86_400;

function isNumberIn(v: unknown, min: number, max: number): boolean {
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
}
const PLATFORMS: readonly string[] = BATCH_PLATFORMS;
/** The documented file limit. */
export const MAX_FILE_BYTES = BATCH_FILE_MB * 1024 * 1024;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function findJob(ctx: RouteContext): BatchJob {
  const job = batchWorld(ctx.state).jobs.get(ctx.params.id ?? '');
  // Another account's batch is as invisible as an unknown one.
  if (!job || job.account !== ctx.credential?.account) throw new ApiError(notFound());
  advance(ctx.state, job);
  return job;
}

function bool(part: FormPart | undefined, field: string): boolean | null {
  if (!part) return null;
  const v = part.data.toString('utf8').trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw fieldError(field, 'Must be a valid boolean.');
}

/**
 * Reads the one-column CSV with csv-parse, as RFC 4180 says: a BOM, CRLF or LF line ends, quoted values
 * (a comma or a line break inside quotes is part of the value, so such a row is one row, billed once).
 * The header is `handle` or `email`; blank rows are skipped.
 */
function readValues(data: Buffer, kind: 'handle' | 'email'): string[] {
  let rows: string[][];
  try {
    rows = parseCsv(data, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (err) {
    throw fieldError('file', `The CSV could not be read: ${(err as Error).message}`);
  }
  const [header = [], ...body] = rows;
  if (header.length > 1) throw fieldError('file', 'The CSV must have exactly one column.');
  if ((header[0] ?? '').toLowerCase() !== kind)
    throw fieldError('file', `The CSV column must be headed '${kind}' for this enrichment mode.`);
  const wide = body.findIndex((row) => row.length > 1);
  if (wide >= 0)
    throw fieldError('file', `Row ${wide + 1} has more than one column; quote a value that holds a comma.`);
  const values = body.map((row) => row[0] ?? '').filter((v) => v !== '');
  if (values.length === 0) throw fieldError('file', 'The CSV has no rows.');
  return values;
}

/** What a new job is made of, however it was asked for. */
interface JobRequest {
  kind: 'handle' | 'email';
  mode: string;
  platform: string | null;
  emailRequired: string | null;
  includeLookalikes: boolean | null;
  includeAudienceData: boolean | null;
  metadata: Record<string, unknown> | null;
  values: string[];
}

/** Starts a job (validating) and answers with the create record. */
function startJob(ctx: RouteContext, r: JobRequest): Reply {
  const now = batchNow(ctx.state);
  const job: BatchJob = {
    id: `bch_${randomBytes(16).toString('hex')}`,
    account: ctx.credential?.account ?? '',
    ctx: { seed: ctx.state.seed, kind: r.kind, mode: r.mode, platform: r.kind === 'handle' ? r.platform : null },
    emailRequired: r.emailRequired,
    includeLookalikes: r.includeLookalikes,
    includeAudienceData: r.includeAudienceData,
    metadata: r.metadata,
    values: r.values,
    outcomes: [],
    data: [],
    status: 'validating',
    createdAt: now,
    startedAt: null,
    finishedAt: null,
    mark: now,
    successCount: 0,
    failedCount: 0,
    creditsMilli: 0,
    statusMessage: null,
    failTriggered: false,
  };
  batchWorld(ctx.state).jobs.set(job.id, job);
  return json({
    batch_id: job.id,
    status: job.status,
    created_at: iso(now),
    enrichment_mode: r.mode,
    platform: job.ctx.platform,
    total_rows: r.values.length,
    metadata: r.metadata,
  });
}

function create(ctx: RouteContext): Reply {
  const boundary =
    ctx.contentType === 'multipart/form-data' ? boundaryOf(String(ctx.headers['content-type'])) : undefined;
  const parts = boundary ? parseMultipart(ctx.rawBody, boundary) : undefined;
  if (!parts) throw fieldError('file', 'No file was submitted. Send multipart/form-data with a CSV file.');
  const field = (name: string): FormPart | undefined => parts.find((p) => p.name === name);
  const text = (name: string): string | undefined => field(name)?.data.toString('utf8').trim();
  // min_followers and exclude_platforms are listed by the service's documentation but have no effect on
  // a batch (the newest official client says so and stopped sending them): accepted and ignored.
  const mode = text('enrichment_mode') ?? '';
  if (!MODES.includes(mode))
    throw fieldError('enrichment_mode', mode ? `"${mode}" is not a valid choice.` : 'This field is required.');
  const kind = mode === 'raw' || mode === 'full' ? 'handle' : 'email';
  const platform = text('platform') || null;
  if (kind === 'handle' && !platform)
    throw fieldError('platform', 'This field is required for raw and full enrichment.');
  if (platform && !PLATFORMS.includes(platform)) throw fieldError('platform', `"${platform}" is not a valid choice.`);
  const emailRequired = text('email_required') || null;
  if (emailRequired && !['must_have', 'preferred'].includes(emailRequired)) {
    throw fieldError('email_required', `"${emailRequired}" is not a valid choice.`);
  }
  let metadata: Record<string, unknown> | null = null;
  if (text('metadata')) {
    const parsed = parseJson(Buffer.from(text('metadata') as string));
    if (!parsed.ok || typeof parsed.body !== 'object' || parsed.body === null || Array.isArray(parsed.body)) {
      throw fieldError('metadata', 'Must be a JSON object.');
    }
    metadata = parsed.body as Record<string, unknown>;
  }
  const file = parts.find((p) => p.name === 'file' && p.filename !== undefined);
  if (!file) throw fieldError('file', 'No file was submitted.');
  if (file.data.length > MAX_FILE_BYTES)
    throw fieldError('file', `File too large. The maximum is ${BATCH_FILE_MB} MB.`);
  return startJob(ctx, {
    kind,
    mode,
    platform,
    emailRequired,
    includeLookalikes: bool(field('include_lookalikes'), 'include_lookalikes'),
    includeAudienceData: bool(field('include_audience_data'), 'include_audience_data'),
    metadata,
    values: readValues(file.data, kind),
  });
}

/**
 * The legacy create the official n8n node sends: JSON `{"emails": [...]}`, emails only, no mode field.
 * The sandbox runs it as a basic email batch (the mode is not published; basic is the email batch's
 * base tier), charged per found row like any batch.
 */
function createLegacy(ctx: RouteContext): Reply {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(fieldErrors(400, { non_field_errors: ['Invalid data. Expected a dictionary.'] }));
  }
  const emails = (body as Record<string, unknown>).emails;
  if (emails === undefined || emails === null) throw fieldError('emails', 'This field is required.');
  if (!Array.isArray(emails)) throw fieldError('emails', `Expected a list of items but got type "${typeof emails}".`);
  const bad = emails.findIndex((e) => typeof e !== 'string');
  if (bad >= 0) throw new ApiError(fieldErrors(400, { emails: { [String(bad)]: ['Not a valid string.'] } }));
  const values = (emails as string[]).map((e) => e.trim()).filter((e) => e !== '');
  if (values.length === 0) throw fieldError('emails', 'This list may not be empty.');
  if (values.length > LEGACY_BATCH_EMAILS_MAX)
    throw fieldError('emails', `Ensure this field has no more than ${LEGACY_BATCH_EMAILS_MAX} elements.`);
  return startJob(ctx, {
    kind: 'email',
    mode: 'basic',
    platform: null,
    emailRequired: null,
    includeLookalikes: null,
    includeAudienceData: null,
    metadata: null,
    values,
  });
}

function statusRecord(ctx: RouteContext, job: BatchJob): Record<string, unknown> {
  const rps = batchWorld(ctx.state).settings.rowsPerSecond;
  const left = job.values.length - job.outcomes.length;
  const record: Record<string, unknown> = {
    batch_id: job.id,
    status: job.status,
    total_rows: job.values.length,
    processed_rows: job.outcomes.length,
    success_count: job.successCount,
    failed_count: job.failedCount,
    started_at: iso(job.startedAt),
    metadata: job.metadata ?? {},
    credits_used: (job.creditsMilli / 1000).toFixed(3),
    estimated_completion:
      job.status === 'processing' || job.status === 'queued' || job.status === 'validating'
        ? iso(Math.round(Math.max(job.mark, job.createdAt) + (left * 1000) / rps))
        : null,
  };
  if (job.statusMessage) record.status_message = job.statusMessage;
  return record;
}

function notReady(job: BatchJob): ApiError {
  return new ApiError(errorText(400, `Batch results are not ready (status: ${job.status}).`));
}

/** The presigned link of a finished job's results. */
function download(ctx: RouteContext): Reply {
  const job = findJob(ctx);
  if (!hasResults(job)) throw notReady(job);
  const link = presign(ctx.state, job);
  return json({
    download_url: link.url,
    filename: link.filename,
    expires_in: link.expiresIn,
    expires_at: iso(link.expiresAt),
    batch_id: job.id,
    total_results: job.outcomes.length,
    invalid_records: job.failedCount,
  });
}

function resumeJob(ctx: RouteContext): Reply {
  const job = findJob(ctx);
  if (!resume(ctx.state, job)) {
    throw new ApiError(errorText(400, `Only a paused or failed batch can be resumed (status: ${job.status}).`));
  }
  return json({ batch_id: job.id, status: job.status, message: 'Batch resumed.' });
}

export function register(router: Router): void {
  router.post('/public/v1/enrichment/batch/', create, { body: 'raw' });
  router.get('/public/v1/enrichment/batch/:id/status/', (ctx) => json(statusRecord(ctx, findJob(ctx))));
  // The legacy routes of the official n8n node, on the same jobs (its download answer is not published:
  // the sandbox gives the documented one).
  router.post('/public/v1/creators/enrich/public/', createLegacy);
  router.get('/public/v1/creators/enrich/public/:id/', (ctx) => json(statusRecord(ctx, findJob(ctx))));
  router.get('/public/v1/creators/enrich/public/:id/download/', download);
  router.post('/public/v1/creators/enrich/public/:id/resume/', resumeJob);
  router.get('/public/v1/enrichment/batch/:id/', (ctx) => {
    const job = findJob(ctx);
    const format = ctx.query.get('format') ?? 'csv';
    if (format !== 'csv' && format !== 'json') throw fieldError('format', `"${format}" is not a valid choice.`);
    if (!hasResults(job)) throw notReady(job);
    if (format === 'json')
      return json(job.outcomes.map((o, i) => resultRow(job.values[i] as string, o, job.data[i] ?? null)));
    return { status: 200, raw: resultsCsv(job), contentType: 'text/csv' };
  });
  router.get('/public/v1/enrichment/batch/:id/download/', (ctx) =>
    batchWorld(ctx.state).settings.downloadRoute ? download(ctx) : notFound(),
  );
  router.post('/public/v1/enrichment/batch/:id/resume/', resumeJob);

  const describe = (ctx: RouteContext): Reply => {
    const world = batchWorld(ctx.state);
    return json({
      ...world.settings,
      offsetSeconds: world.offsetMs / 1000,
      fileOrigin: world.fileOrigin,
      jobs: [...world.jobs.values()].map((job) => ({ batch_id: job.id, status: job.status, rows: job.values.length })),
    });
  };
  router.get('/_sandbox/batch', describe);
  router.post(
    '/_sandbox/batch',
    (ctx) => {
      const parsed = parseJson(ctx.rawBody.length > 0 ? ctx.rawBody : Buffer.from('{}'));
      if (!parsed.ok) return parsed.reply;
      const body = parsed.body as Record<string, unknown>;
      // Every number is bounded (README, "The sandbox as a server"): no Infinity or 1e308 reaches the clocks.
      const checks: Record<string, [(v: unknown) => boolean, string]> = {
        rowsPerSecond: [(v) => isNumberIn(v, 0, 1_000_000), 'a number from 0 to 1000000'],
        queueSeconds: [(v) => isNumberIn(v, 0, 86_400), 'a number from 0 to 86400'],
        downloadTtlSeconds: [(v) => isNumberIn(v, 0, 604_800), 'a number from 0 to 604800 (7 days)'],
        dropDownloads: [(v) => Number.isInteger(v) && isNumberIn(v, 0, 1_000), 'an integer from 0 to 1000'],
        advanceSeconds: [
          (v) => isNumberIn(v, 0, MAX_ADVANCE_SECONDS),
          `a number from 0 to ${MAX_ADVANCE_SECONDS} (366 days)`,
        ],
        dropAfterBytes: [
          (v) => v === null || (Number.isInteger(v) && isNumberIn(v, 0, 1_000_000_000)),
          'null or an integer from 0 to 1000000000',
        ],
        downloadRoute: [(v) => typeof v === 'boolean', 'true or false'],
        rangeRequests: [(v) => typeof v === 'boolean', 'true or false'],
      };
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return fieldErrors(400, { non_field_errors: ['Expected a JSON object of settings.'] });
      const errors: Record<string, string[]> = {};
      for (const [k, v] of Object.entries(body)) {
        const check = checks[k];
        if (!check) errors[k] = [`Unknown setting. Known: ${Object.keys(checks).join(', ')}.`];
        else if (!check[0](v)) errors[k] = [`Must be ${check[1]}.`];
      }
      if (Object.keys(errors).length > 0) return fieldErrors(400, errors);
      configureBatch(ctx.state, body);
      return describe(ctx);
    },
    { body: 'raw' },
  );
}
