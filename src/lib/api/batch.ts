/**
 * Batch enrichment endpoints (api-contract §9). One function per endpoint; no printing, no flags.
 */
import type { Readable } from 'node:stream';
import { CliError } from '../errors.js';
import type { HttpClient, HttpResponse } from '../http/client.js';
import { pathSegment } from '../http/url.js';
import type { MultipartBody } from '../batch/multipart.js';
import { normaliseStatus, type BatchStatus } from '../batch/status.js';

/** Uploads and downloads get longer than ordinary requests (cli.md: default 120 s). */
export const TRANSFER_TIMEOUT_MS = 120_000;

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

export interface CreateOptions {
  timeoutMs?: number | undefined;
}

/**
 * `POST /public/v1/enrichment/batch/` (multipart). The body is a factory of fresh streams, so the
 * client may send it again under its usual rules for a POST: only when the server refused it unstarted
 * (429 rate_limited, 503, connection refused). A timeout or reset after sending is not retried: the
 * job may exist.
 */
export async function createBatch(http: HttpClient, body: MultipartBody, options: CreateOptions = {}): Promise<CreatedBatch> {
  const res = await http.request<Record<string, unknown>>({
    method: 'POST',
    path: 'enrichment/batch',
    rawBody: { data: () => body.stream(), contentType: body.contentType, length: body.length },
    timeoutMs: options.timeoutMs ?? TRANSFER_TIMEOUT_MS,
  });
  const data = res.data ?? {};
  return { ...data, batch_id: String(data.batch_id ?? data.id ?? ''), status: String(data.status ?? 'queued') };
}

/** `GET /public/v1/enrichment/batch/{id}/status/` (free). */
export async function getBatchStatus(http: HttpClient, id: string, timeoutMs?: number): Promise<BatchStatus> {
  const res = await http.request({ method: 'GET', path: `${base(id)}/status`, ...(timeoutMs ? { timeoutMs } : {}) });
  return normaliseStatus(res.data, id);
}

/** `GET /public/v1/enrichment/batch/{id}/download/`: a short-lived CSV URL on another host (free). */
export async function getDownloadLink(http: HttpClient, id: string): Promise<DownloadLink> {
  const res = await http.request<Record<string, unknown>>({ method: 'GET', path: `${base(id)}/download` });
  const data = res.data ?? {};
  if (typeof data.download_url !== 'string' || data.download_url === '') {
    throw new CliError(`The download route for batch ${id} returned no download_url.`, 1, { code: 'malformed_response' });
  }
  return data as DownloadLink;
}

/** Opens the result route `GET /public/v1/enrichment/batch/{id}/` as a byte stream (CSV default, or JSON). */
export async function openResults(
  http: HttpClient,
  id: string,
  format: 'csv' | 'json',
  timeoutMs = TRANSFER_TIMEOUT_MS,
): Promise<HttpResponse<Readable>> {
  return http.request<Readable>({
    method: 'GET',
    path: base(id),
    query: format === 'json' ? { format: 'json' } : {},
    responseType: 'stream',
    timeoutMs,
    headers: { accept: format === 'json' ? 'application/json' : 'text/csv, */*' },
  });
}

/** Opens a presigned download URL. No Authorization header: it is another host (and noAuth says so twice). */
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

/** `POST /public/v1/enrichment/batch/{id}/resume/` with `{}` (free). */
export async function resumeBatch(http: HttpClient, id: string): Promise<Record<string, unknown>> {
  const res = await http.request<Record<string, unknown> | null>({ method: 'POST', path: `${base(id)}/resume`, body: {} });
  return res.data && typeof res.data === 'object' ? res.data : {};
}
