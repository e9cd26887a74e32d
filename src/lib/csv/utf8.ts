/**
 * CSV input must be UTF-8: decoding invalid bytes to U+FFFD silently would turn a mangled handle or
 * email into a billable request. The reader decodes strictly and reports where the file goes wrong.
 */

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
