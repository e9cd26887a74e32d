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
  const fail = (): UsageError =>
    new UsageError(`${source === '-' ? 'Standard input' : `'${source}'`} is not valid UTF-8 (after byte ${offset}).`, {
      hint: 'Save the file as UTF-8 (for example: iconv -f latin1 -t utf-8 in.csv > out.csv).',
    });
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        return done(fail());
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
