import { readFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { multipartBody } from '../../../src/lib/batch/multipart.js';
import { boundaryOf, parseMultipart } from '../../../src/sandbox/batch/multipart.js';
import { tempDir, writeCsv } from '../../commands/batch/helpers.js';

describe('multipart body', () => {
  it('streams fields and the file with an exact Content-Length, and parses back', async () => {
    const file = writeCsv(tempDir(), 'p.csv', ['handle', 'a', 'b']);
    const body = await multipartBody(
      [
        ['enrichment_mode', 'raw'],
        ['metadata', '{"a":1}'],
      ],
      { field: 'file', filename: 'batch.csv', contentType: 'text/csv', path: file },
    );
    const buf = Buffer.from(await text(body.stream()));
    expect(buf.length).toBe(body.length);
    const parts = parseMultipart(buf, boundaryOf(body.contentType) as string)!;
    expect(parts.map((p) => p.name)).toEqual(['enrichment_mode', 'metadata', 'file']);
    expect(parts[2]).toMatchObject({ filename: 'batch.csv', contentType: 'text/csv' });
    expect(parts[2]!.data.toString()).toBe(readFileSync(file, 'utf8'));
    // A second stream is a fresh copy (retries need one).
    expect(await text(body.stream())).toBe(buf.toString());
  });
});
