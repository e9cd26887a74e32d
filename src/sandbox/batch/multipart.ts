/** A small multipart/form-data parser for the batch upload (the body is already in memory). */

export interface FormPart {
  name: string;
  filename?: string | undefined;
  contentType?: string | undefined;
  data: Buffer;
}

/** The boundary of a `multipart/form-data; boundary=...` header, or undefined. */
export function boundaryOf(header: string | undefined): string | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(header ?? '');
  return m ? (m[1] ?? m[2]) : undefined;
}

/** Splits a multipart body into its parts; returns undefined when it is malformed. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) return undefined;
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === '--') return parts;
    if (body.subarray(pos, pos + 2).toString() !== '\r\n') return undefined;
    pos += 2;
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) return undefined;
    const headers = body.subarray(pos, headerEnd).toString('utf8');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) return undefined;
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    parts.push({
      name,
      filename: /\bfilename="([^"]*)"/i.exec(disposition)?.[1],
      contentType: /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim(),
      data: body.subarray(headerEnd + 4, next),
    });
    pos = next + 2;
  }
}
