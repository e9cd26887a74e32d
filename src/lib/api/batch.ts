// api-contract §9.
import type { Readable } from 'node:stream';
import { BATCH_ROUTE, MODE_PRICE, WORST_CASE_MILLI } from '../../contract/prices.js';
import { CliError } from '../errors.js';
import { formatCredits } from '../words.js';
import type { HttpClient } from '../http/client.js';
import type { HttpResponse } from '../http/types.js';
import { pathSegment } from '../http/url.js';
import { normaliseStatus, type BatchStatus } from './batch-status.js';
import { freePlan, type Plan } from './plan.js';
import { plural } from '../words.js';

/** cli.md: default 120 s. */
export const TRANSFER_TIMEOUT_MS = 120_000;

/** An upload body the sender can replay (lib/batch/multipart.ts builds it from a file). */
export interface MultipartBody {
  contentType: string;
  length: number;
  /** A fresh stream each call, so a refused request can be sent again. */
  stream(): Readable;
}

export interface CreatedBatch extends Record<string, unknown> {
  batch_id: string;
  status: string;
}

export interface DownloadLink extends Record<string, unknown> {
  download_url: string;
  filename?: string;
  expires_in?: number;
  expires_at?: string;
}

const base = (id: string): string => `enrichment/batch/${pathSegment(id, 'batch id')}`;

const CREATE_PATH = BATCH_ROUTE;

const SENDING = 'Sending the batch…';

export type BatchPriceMode = keyof typeof MODE_PRICE;

/** The higher figure where sources disagree. */
export function batchRowPriceMilli(mode: BatchPriceMode): number {
  return WORST_CASE_MILLI[MODE_PRICE[mode]];
}

export interface CreatePlanInput {
  mode: BatchPriceMode;
  fields: ReadonlyArray<readonly [string, string]>;
  column: string;
  rows: number;
  files?: number;
}

/** Worst case: every row enriched at the mode's price (the service charges only rows that return data). */
export function createBatchPlan(input: CreatePlanInput): Plan {
  const price = batchRowPriceMilli(input.mode);
  const files = input.files ?? 1;
  return {
    method: 'POST',
    path: CREATE_PATH,
    body: {
      ...Object.fromEntries(input.fields),
      file: `batch.csv (text/csv, column '${input.column}', ${plural(input.rows, 'row')}${files > 1 ? ` in ${files} files` : ''})`,
    },
    worstCaseMilli: input.rows * price,
    costBasis: `${plural(input.rows, 'row')} x ${formatCredits(price)} (${input.mode}), charged only for rows with data`,
    label: SENDING,
  };
}

/**
 * The legacy create the official n8n node sends (`POST creators/enrich/public/` with JSON `{"emails": [...]}`,
 * api-contract §9.1): an email batch without a mode field, priced as a basic one, each email a row.
 */
export function legacyEmailBatchPlan(body: Record<string, unknown>): Plan {
  const rows = Array.isArray(body.emails) ? body.emails.length : 0;
  const price = batchRowPriceMilli('basic');
  return {
    method: 'POST',
    path: 'creators/enrich/public',
    body,
    worstCaseMilli: rows * price,
    costBasis: `${plural(rows, 'email')} x ${formatCredits(price)} (basic), charged only for rows with data`,
    label: SENDING,
  };
}

export function batchStatusPlan(id: string): Plan {
  return freePlan('GET', `${base(id)}/status`);
}

export function downloadLinkPlan(id: string): Plan {
  return freePlan('GET', `${base(id)}/download`);
}

export function resultsPlan(id: string, format: 'csv' | 'json'): Plan {
  return freePlan('GET', base(id), format === 'json' ? { query: { format: 'json' } } : {});
}

/** service-spec: resume costs 0 credits; the job then goes on charging its remaining rows. */
export function resumeBatchPlan(id: string): Plan {
  return {
    ...freePlan('POST', `${base(id)}/resume`, { body: {} }),
    label: SENDING,
    costBasis:
      'resuming is free; the job goes on charging its remaining rows at its mode price, only for rows with data',
  };
}

export interface CreateOptions {
  timeoutMs?: number | undefined;
}

/** The body is a factory of fresh streams, so the client may send it again when the server refused it unstarted
 * (429 rate_limited, 503, connection refused). A timeout or reset after sending is not retried: the job may exist. */
export async function createBatch(
  http: HttpClient,
  body: MultipartBody,
  options: CreateOptions = {},
): Promise<CreatedBatch> {
  const res = await http.request<Record<string, unknown>>({
    method: 'POST',
    path: CREATE_PATH,
    rawBody: { data: () => body.stream(), contentType: body.contentType, length: body.length },
    label: SENDING,
    timeoutMs: options.timeoutMs ?? TRANSFER_TIMEOUT_MS,
  });
  const data = res.data ?? {};
  return { ...data, batch_id: String(data.batch_id ?? data.id ?? ''), status: String(data.status ?? 'queued') };
}

export async function getBatchStatus(http: HttpClient, id: string): Promise<BatchStatus> {
  const res = await http.request(batchStatusPlan(id));
  return normaliseStatus(res.data, id);
}

/** A short-lived CSV URL on another host; the HTTP client has checked it is a non-empty `download_url`. */
export async function getDownloadLink(http: HttpClient, id: string): Promise<DownloadLink> {
  const { method, path } = downloadLinkPlan(id);
  const res = await http.request<Record<string, unknown> & { download_url: string }>({ method, path });
  const data = res.data;
  // A relative link is taken from the route's own URL, as a browser resolves a link.
  let url: URL | undefined;
  try {
    url = new URL(data.download_url, res.url || http.baseUrl.href);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new CliError(`The download route for batch ${id} returned a download_url that is not an http(s) URL.`, 1, {
      code: 'malformed_response',
      hint: `The results stay on the server; try again later with: creators batch download ${id}`,
    });
  }
  return { ...data, download_url: url.href } as DownloadLink;
}

export async function openResults(
  http: HttpClient,
  id: string,
  format: 'csv' | 'json',
  timeoutMs = TRANSFER_TIMEOUT_MS,
): Promise<HttpResponse<Readable>> {
  const { method, path, query } = resultsPlan(id, format);
  return http.request<Readable>({
    method,
    path,
    query: query ?? {},
    responseType: 'stream',
    timeoutMs,
    headers: { accept: format === 'json' ? 'application/json' : 'text/csv, */*' },
  });
}

export async function openDownloadUrl(
  http: HttpClient,
  url: string,
  headers: Record<string, string>,
  timeoutMs = TRANSFER_TIMEOUT_MS,
): Promise<HttpResponse<Readable>> {
  return http.request<Readable>({
    method: 'GET',
    path: '',
    absoluteUrl: url,
    noAuth: true,
    responseType: 'stream',
    timeoutMs,
    headers: { accept: '*/*', ...headers },
  });
}

export async function resumeBatch(http: HttpClient, id: string): Promise<Record<string, unknown>> {
  const { method, path, body, label } = resumeBatchPlan(id);
  const res = await http.request<Record<string, unknown> | null>({ method, path, body, label });
  return res.data && typeof res.data === 'object' ? res.data : {};
}
