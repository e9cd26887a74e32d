/**
 * The sandbox's stand-in for cloud storage: a second listener (another port, hence another origin)
 * serving the short-lived URLs `/download/` hands out. Like a presigned S3 URL it needs no
 * Authorization header, refuses an expired link with 403 `AccessDenied` / `Request has expired`,
 * honours `Range` (206), and can be told to cut downloads short to exercise the client's recovery.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxState } from '../state.js';
import { applyFaults } from '../faults/inject.js';
import { hostAllowed, hostRefusal } from '../loopback.js';
import { batchNow, batchWorld, type BatchJob } from './jobs.js';
import { csvHeader, csvLine } from './results.js';

interface Link {
  jobId: string;
  expiresAt: number;
  filename: string;
}

const links = new WeakMap<SandboxState, Map<string, Link>>();

function linkTable(state: SandboxState): Map<string, Link> {
  let table = links.get(state);
  if (!table) {
    table = new Map();
    links.set(state, table);
  }
  return table;
}

/** Fault hook: expires the link a request is using, as if its lifetime ran out mid-transfer. */
function expireLinkOf(state: SandboxState, target: string | undefined): void {
  const m = /^\/batch-results\/([0-9a-f]{32})\//.exec(target ?? '');
  const link = m ? linkTable(state).get(m[1] as string) : undefined;
  if (link) link.expiresAt = batchNow(state) - 1;
}

/** The whole results CSV of a job as it stands (finished, or partial when paused). */
export function resultsCsv(job: BatchJob): Buffer {
  const lines = [`${csvHeader(job.ctx).join(',')}\n`];
  job.outcomes.forEach((outcome, i) =>
    lines.push(csvLine(job.ctx, job.values[i] as string, outcome, job.data[i] ?? null)),
  );
  return Buffer.from(lines.join(''));
}

/** A presigned-looking URL for a job's CSV, valid for the configured lifetime of batch time. */
export function presign(
  state: SandboxState,
  job: BatchJob,
): { url: string; filename: string; expiresIn: number; expiresAt: number } {
  const world = batchWorld(state);
  const token = randomBytes(16).toString('hex');
  const expiresIn = world.settings.downloadTtlSeconds;
  const expiresAt = batchNow(state) + expiresIn * 1000;
  const filename = `${job.id}_results.csv`;
  linkTable(state).set(token, { jobId: job.id, expiresAt, filename });
  const url = `${world.fileOrigin}/batch-results/${token}/${filename}?X-Amz-Expires=${expiresIn}&X-Amz-Signature=${randomBytes(16).toString('hex')}`;
  return { url, filename, expiresIn, expiresAt };
}

function s3Error(res: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function serve(state: SandboxState, req: IncomingMessage, res: ServerResponse): void {
  const world = batchWorld(state);
  const url = new URL(req.url ?? '/', 'http://files');
  world.fileRequests.push({ path: url.pathname, headers: { ...req.headers } });
  const m = /^\/batch-results\/([0-9a-f]{32})\/[^/]+$/.exec(url.pathname);
  const link = m ? linkTable(state).get(m[1] as string) : undefined;
  const job = link ? world.jobs.get(link.jobId) : undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return s3Error(res, 405, 'MethodNotAllowed', 'The specified method is not allowed.');
  if (!link || !job) return s3Error(res, 403, 'AccessDenied', 'Access Denied');
  if (batchNow(state) > link.expiresAt) return s3Error(res, 403, 'AccessDenied', 'Request has expired');

  const body = resultsCsv(job);
  const etag = `"${job.id}-${job.outcomes.length}"`;
  let start = 0;
  const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
  const ifRange = req.headers['if-range'];
  const ranged = world.settings.rangeRequests && range !== null && (ifRange === undefined || ifRange === etag);
  if (ranged) start = Number(range[1]);
  if (start > body.length) return s3Error(res, 416, 'InvalidRange', 'The requested range is not satisfiable');
  const slice = body.subarray(start);
  const headers: Record<string, string | number> = {
    'Content-Type': 'text/csv',
    'Content-Length': slice.length,
    'Content-Disposition': `attachment; filename="${link.filename}"`,
    ETag: etag,
  };
  if (world.settings.rangeRequests) headers['Accept-Ranges'] = 'bytes';
  if (ranged) headers['Content-Range'] = `bytes ${start}-${body.length - 1}/${body.length}`;
  res.writeHead(ranged ? 206 : 200, headers);
  if (req.method === 'HEAD') return void res.end();
  if (world.settings.dropDownloads > 0) {
    world.settings.dropDownloads -= 1;
    const cut = Math.min(slice.length - 1, world.settings.dropAfterBytes ?? Math.floor(slice.length / 2));
    // Send part of the body, then drop the connection: the client sees a transfer cut short.
    res.write(slice.subarray(0, Math.max(0, cut)), () => setTimeout(() => res.socket?.destroy(), 5));
    return;
  }
  res.end(slice);
}

/** Starts the file host on `host`, port 0, and records its origin for `/download/`. */
export async function startFileHost(
  state: SandboxState,
  host: string,
): Promise<{ url: string; close(): Promise<void> }> {
  let port = 0;
  const server: Server = createServer(async (req, res) => {
    try {
      // The results hold emails: a DNS-rebinding page must not read them either.
      if (!hostAllowed(req.headers.host, port, host))
        return s3Error(res, 421, 'MisdirectedRequest', hostRefusal(req.headers.host, port));
      if (await applyFaults(state, 'files', req, res, { expire: () => expireLinkOf(state, req.url) })) return;
      serve(state, req, res);
    } catch (err) {
      state.log(`sandbox file host: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) s3Error(res, 500, 'InternalError', 'We encountered an internal error.');
      else res.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  batchWorld(state).fileOrigin = url;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
