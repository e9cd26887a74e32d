/**
 * A pass-through that insists its bytes are UTF-8. csv-parse would otherwise decode invalid bytes to
 * U+FFFD silently, and a mangled handle or email is still a billable request.
 */
import { Transform } from 'node:stream';
import { UsageError } from '../errors.js';

/** Fails the stream with a UsageError naming `source` and the byte offset of the first invalid sequence. */
export function utf8Guard(source: string): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  const fail = (at = offset): UsageError =>
    new UsageError(`${source === '-' ? 'Standard input' : `'${source}'`} is not valid UTF-8 (byte ${at}).`, {
      hint: 'Save the file as UTF-8 (for example: iconv -f latin1 -t utf-8 in.csv > out.csv).',
    });
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        return done(fail(offset + firstInvalidByte(chunk)));
      }
      offset += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      try {
        decoder.decode();
      } catch {
        return done(fail());
      }
      done();
    },
  });
}

/** Index of the first byte that starts an invalid UTF-8 sequence in `buf` (0 when it cannot tell). */
export function firstInvalidByte(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i] as number;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0) return i;
    // A sequence cut by the chunk's end is not an error here; the decoder carries it to the next chunk.
    if (i + len > buf.length) return i;
    for (let k = 1; k < len; k++) if (((buf[i + k] as number) & 0xc0) !== 0x80) return i;
    i += len;
  }
  return 0;
}
