/** Streamed from disk, with Content-Length computed up front: some upload proxies refuse chunked bodies. */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { MultipartBody } from '../api/batch.js';

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  path: string;
}

const CRLF = '\r\n';

function quoted(s: string): string {
  return s.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
}

export async function multipartBody(
  fields: ReadonlyArray<readonly [string, string]>,
  file: MultipartFile,
): Promise<MultipartBody> {
  const boundary = `----creators${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    fields
      .map(
        ([name, value]) =>
          `--${boundary}${CRLF}Content-Disposition: form-data; name="${quoted(name)}"${CRLF}${CRLF}${value}${CRLF}`,
      )
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
