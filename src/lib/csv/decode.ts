/**
 * A user's file as text, strictly: UTF-8, or UTF-16 when a BOM says so (spreadsheets' "Unicode text"). Anything
 * else, and a NUL, is refused naming its line and byte: a mangled handle is still a billable request.
 */
import { TextDecoder } from 'node:util';
import { UsageError } from '../errors.js';

export function named(source: string, startsSentence = false): string {
  if (source !== '-') return `'${source}'`;
  return startsSentence ? 'Standard input' : 'standard input';
}

function sequenceLength(b: number): number {
  return b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
}

/**
 * `invalid`: the lead byte of the first invalid sequence (-1: none), as the decoder sees it (overlong forms and
 * surrogates included); `tail`: where a sequence cut by the end of `buf` starts.
 */
export function scanUtf8(buf: Uint8Array): { invalid: number; tail: number } {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = sequenceLength(b);
    if (len === 0) return { invalid: i, tail: buf.length };
    // The second byte's range depends on the lead (Unicode table 3-7).
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < len; k++) {
      if (i + k >= buf.length) return { invalid: -1, tail: i };
      const c = buf[i + k] as number;
      if (k === 1 ? c < lo || c > hi : (c & 0xc0) !== 0x80) return { invalid: i, tail: buf.length };
    }
    i += len;
  }
  return { invalid: -1, tail: buf.length };
}

function countBreaks(text: string, afterCr: boolean): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1))
    if (!(i === 0 ? afterCr : text.charCodeAt(i - 1) === 13)) n++;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) n++;
  return n;
}

export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** Line 1-based, byte offset 0-based; rows already read stay read (stdin streams). */
export async function* decodeText(stream: AsyncIterable<Buffer | string>, source: string): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let encoding: Encoding = 'utf-8';
  let head = Buffer.alloc(0);
  let offset = 0; // bytes of the input before `carry`
  let carry: Buffer = Buffer.alloc(0); // the cut sequence at the end of the last UTF-8 chunk
  let line = 1;
  let afterCr = false;
  const refuse = (what: string, at: number, atLine: number): UsageError =>
    new UsageError(`${named(source, true)} ${what} (line ${atLine}, byte ${at}).`, {
      hint:
        encoding === 'utf-8'
          ? 'Save the file as UTF-8 (or UTF-16 with a byte-order mark), for example: iconv -f windows-1252 -t utf-8 in.csv > out.csv.'
          : 'Save the file again as UTF-8 or UTF-16 text.',
      code: 'bad_csv',
    });
  const emit = (text: string, base = offset): string => {
    const nul = text.indexOf('\0');
    if (nul !== -1) {
      const before = text.slice(0, nul);
      const bytes = encoding === 'utf-8' ? Buffer.byteLength(before) : before.length * 2;
      throw refuse(
        'holds a NUL byte; is it a binary file or a spreadsheet workbook rather than CSV?',
        base + bytes,
        line + countBreaks(before, afterCr),
      );
    }
    line += countBreaks(text, afterCr);
    if (text.length > 0) afterCr = text.charCodeAt(text.length - 1) === 13;
    return text;
  };
  const decode = (bytes: Buffer | undefined): string => {
    const d = decoder as TextDecoder;
    try {
      return bytes ? d.decode(bytes, { stream: true }) : d.decode();
    } catch {
      if (encoding !== 'utf-8') throw refuse(`is not valid ${encoding.toUpperCase()}`, offset, line);
      const all = bytes ? Buffer.concat([carry, bytes]) : carry;
      const { invalid } = scanUtf8(all);
      const at = invalid === -1 ? 0 : invalid;
      throw refuse(
        'is not valid UTF-8',
        offset + at,
        line + countBreaks(all.subarray(0, at).toString('latin1'), afterCr),
      );
    }
  };
  const feed = (bytes: Buffer): string => {
    const text = decode(bytes);
    const base = offset;
    if (encoding === 'utf-8') {
      const all = carry.length ? Buffer.concat([carry, bytes]) : bytes;
      const { tail } = scanUtf8(all);
      offset += tail;
      carry = Buffer.from(all.subarray(tail));
    } else {
      offset += bytes.length;
    }
    return emit(text, base);
  };
  const start = (bytes: Buffer): string => {
    let skip = 0;
    if (bytes[0] === 0xff && bytes[1] === 0xfe) [encoding, skip] = ['utf-16le', 2];
    else if (bytes[0] === 0xfe && bytes[1] === 0xff) [encoding, skip] = ['utf-16be', 2];
    else if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) skip = 3;
    decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
    offset = skip;
    return feed(bytes.subarray(skip));
  };
  for await (const chunk of stream) {
    if (typeof chunk === 'string') {
      yield emit(chunk);
      continue;
    }
    if (!decoder) {
      head = Buffer.concat([head, chunk]);
      // Three bytes tell every BOM apart.
      if (head.length < 3) continue;
      const text = start(head);
      if (text) yield text;
      continue;
    }
    const text = feed(chunk);
    if (text) yield text;
  }
  if (!decoder) {
    if (head.length === 0) return;
    const text = start(head);
    if (text) yield text;
  }
  const rest = emit(decode(undefined));
  if (rest) yield rest;
}
