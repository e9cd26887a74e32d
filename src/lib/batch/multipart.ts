/**
 * A multipart/form-data body streamed from disk: text fields first, then the CSV file part. The
 * length is computed up front so the request carries Content-Length (some upload proxies refuse
 * chunked bodies), and the file itself is never read into memory.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';

export interface MultipartBody {
  contentType: string;
  length: number;
  /** A fresh stream each call, so a refused request can be sent again. */
  stream(): Readable;
}

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  path: string;
}

const CRLF = '\r\n';

/** Field names and file names come from our own code, but quote-escape them anyway. */
function quoted(s: string): string {
  return s.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
}

/** Builds a multipart body of `fields` and one file read from `file.path`. */
export async function multipartBody(fields: ReadonlyArray<readonly [string, string]>, file: MultipartFile): Promise<MultipartBody> {
  const boundary = `----creators${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    fields
      .map(([name, value]) => `--${boundary}${CRLF}Content-Disposition: form-data; name="${quoted(name)}"${CRLF}${CRLF}${value}${CRLF}`)
      .join('') +
      `--${boundary}${CRLF}Content-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.filename)}"${CRLF}` +
      `Content-Type: ${file.contentType}${CRLF}${CRLF}`,
  );
  const tail = Buffer.from(`${CRLF}--${boundary}--${CRLF}`);
  const { size } = await stat(file.path);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
    stream() {
      return Readable.from(
        (async function* () {
          yield head;
          for await (const chunk of createReadStream(file.path)) yield chunk as Buffer;
          yield tail;
        })(),
      );
    },
  };
}
