/**
 * CSV comes from the short-lived `/download/` URL (another host: no Authorization header), else the result
 * route. An interrupted transfer resumes with Range when the host allows it, else restarts in a fresh
 * temporary file; an expired URL is asked for again. The HTTP core retries the opening; this loop takes over
 * once bytes flow. The target only ever appears complete.
 */
import type { Readable } from 'node:stream';
import { CliError, InterruptedError, NetworkError, OutputWriteError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import type { HttpResponse } from '../http/types.js';
import {
  downloadLinkPlan,
  getDownloadLink,
  openDownloadUrl,
  openResults,
  resultsPlan,
  type DownloadLink,
} from '../api/batch.js';
import type { Plan } from '../api/plan.js';
import { transferProblem } from '../http/network-error.js';
import { OutputFileError, type Sink } from '../output/sink.js';

/** The first request of a download (free): the download link for CSV, the result route for JSON. */
export function downloadPlan(id: string, format: 'csv' | 'json'): Plan {
  return format === 'csv' ? downloadLinkPlan(id) : resultsPlan(id, 'json');
}

export interface DownloadOptions {
  id: string;
  format: 'csv' | 'json';
  openSink: () => Promise<Sink>;
  /** False for stdout: written bytes cannot be taken back (nor in an in-place sink), so only a Range resume. */
  restartable: boolean;
  attempts?: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal | undefined;
  notice: (line: string) => void;
  timeoutMs?: number | undefined;
}

export interface DownloadResult {
  bytes: number;
  source: 'download_url' | 'results_route';
  filename?: string | undefined;
  attempts: number;
}

function header(res: HttpResponse<unknown>, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Whatever ends the download, the sink is aborted: no temporary file or descriptor is left to the GC. */
export async function downloadBatch(http: HttpClient, o: DownloadOptions): Promise<DownloadResult> {
  let sink: Sink | undefined;
  try {
    return await transfer(http, o, (opened) => (sink = opened));
  } catch (err) {
    await sink?.abort();
    throw err;
  }
}

async function transfer(http: HttpClient, o: DownloadOptions, opened: (sink: Sink) => void): Promise<DownloadResult> {
  const attempts = o.attempts ?? 5;
  let source: DownloadResult['source'] = o.format === 'csv' ? 'download_url' : 'results_route';
  let link: DownloadLink | undefined;
  let sink = await o.openSink();
  opened(sink);
  // Bytes written to stdout or through a device or FIFO cannot be taken back: only a Range resume then.
  const restartable = o.restartable && !sink.inPlace;
  let written = 0;
  let resumable = false;
  let etag: string | undefined;
  let lastError: unknown;

  const fileHost = (): string =>
    source === 'download_url' && link ? new URL(link.download_url).host : http.baseUrl.host;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    // Until the body starts, failures are the HTTP core's: it has already retried what it may.
    let transferring = false;
    try {
      if (o.signal?.aborted) throw new InterruptedError();
      if (source === 'download_url' && !link) {
        try {
          link = await getDownloadLink(http, o.id);
        } catch (err) {
          // No /download/ route on this server (older deployments): the result route serves CSV too.
          if (!(err instanceof CliError && err.status === 404)) throw err;
          o.notice(`No download link for batch ${o.id} (HTTP 404); using the result route instead.`);
          source = 'results_route';
        }
      }
      const headers: Record<string, string> = {};
      if (written > 0 && resumable) {
        headers.range = `bytes=${written}-`;
        if (etag) headers['if-range'] = etag;
      }
      const res =
        source === 'download_url' && link
          ? await openDownloadUrl(http, link.download_url, headers, o.timeoutMs)
          : await openResults(http, o.id, o.format, o.timeoutMs);
      if (written > 0 && res.status !== 206) {
        if (!restartable) {
          res.data.destroy();
          throw new NetworkError(
            `The download of batch ${o.id} was interrupted after ${written} bytes already written to ${sink.inPlace && o.restartable ? 'the output' : 'stdout'} and cannot be resumed.`,
            {
              hint: `Download it to a file instead: creators batch download ${o.id} -o results.${o.format}`,
            },
          );
        }
        await sink.abort();
        sink = await o.openSink();
        opened(sink);
        written = 0;
      }
      resumable = header(res, 'accept-ranges') === 'bytes';
      etag = header(res, 'etag') ?? etag;
      transferring = true;
      const expected =
        res.status === 206
          ? Number(/\/(\d+)$/.exec(header(res, 'content-range') ?? '')?.[1])
          : Number(header(res, 'content-length') ?? NaN);
      for await (const chunk of res.data as Readable) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        // A failed write rejects with OutputWriteError (it names the file or stdout), never retried.
        await sink.writeBytes(buf);
        written += buf.length;
      }
      if (Number.isFinite(expected) && written !== expected) {
        throw new Error(`the transfer ended after ${written} of ${expected} bytes`);
      }
      await sink.commit();
      return { bytes: written, source, filename: link?.filename as string | undefined, attempts: attempt };
    } catch (err) {
      lastError = err;
      if (err instanceof InterruptedError || o.signal?.aborted) {
        await sink.abort();
        throw new InterruptedError(`Download of batch ${o.id} interrupted; no partial file was left.`, {
          hint: `Download it again with: creators batch download ${o.id}`,
        });
      }
      if (err instanceof OutputFileError || err instanceof OutputWriteError) {
        await sink.abort();
        throw err;
      }
      if (err instanceof CliError && err.status !== undefined) {
        // The storage host refuses an expired presigned URL with 403 (S3) or 400: ask for a new one.
        if (source === 'download_url' && link && (err.status === 403 || err.status === 400)) {
          o.notice(`The download link of batch ${o.id} has expired; asking for a new one.`);
          link = undefined;
          continue;
        }
        await sink.abort();
        throw err;
      }
      if (!transferring && err instanceof CliError) {
        // The core gave up after its own retries: retrying here too would multiply the attempts.
        await sink.abort();
        throw err;
      }
      if (attempt >= attempts || (!restartable && !resumable && written > 0)) break;
      const how =
        written > 0 ? (resumable ? `resuming at byte ${written}` : 'restarting from the beginning') : 'retrying';
      o.notice(
        `Download of batch ${o.id} interrupted (${transferProblem(err, fileHost())}); ${how} (attempt ${attempt + 1} of ${attempts}).`,
      );
      try {
        await o.sleep(http.retryDelayMs(attempt), o.signal);
      } catch {
        await sink.abort();
        throw new InterruptedError(`Download of batch ${o.id} interrupted; no partial file was left.`);
      }
    }
  }
  await sink.abort();
  const why = transferProblem(lastError, fileHost());
  throw new NetworkError(`Download of batch ${o.id} failed: ${why}. No partial file was left.`, {
    hint: `The results stay on the server; try again with: creators batch download ${o.id}`,
    cause: lastError,
  });
}
