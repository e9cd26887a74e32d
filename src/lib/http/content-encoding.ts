// A storage host serves an object stored gzipped as gzip whatever the request says. Decoded here, streaming, so the
// size cap counts decoded bytes: a small compressed body cannot unfold into gigabytes of memory.
import { pipeline, type Readable, type Transform } from 'node:stream';
import { readCapped, type RawResponse } from './transport.js';

export class UnsupportedEncoding extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported content encoding '${encoding}'`);
    this.name = 'UnsupportedEncoding';
  }
}

type ZstdZlib = { createZstdDecompress?: () => Transform };

function decoderFor(coding: string): Transform {
  // Loaded when an answer is encoded, not by every command that makes a request (README, Performance).
  const zlib = process.getBuiltinModule('node:zlib');
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd': {
      const make = (zlib as unknown as ZstdZlib).createZstdDecompress;
      if (make) return make();
      throw new UnsupportedEncoding(coding);
    }
    default:
      throw new UnsupportedEncoding(coding);
  }
}

export function contentCodings(header: string | string[] | undefined): string[] {
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  return raw
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/** Headers describing the encoded bytes go: a Range of the encoded bytes cannot be resumed in the decoded ones. */
export function decodeContent(res: RawResponse): RawResponse {
  const codings = contentCodings(res.headers['content-encoding']);
  // zlib would call an empty body a truncated stream.
  if (codings.length === 0 || res.statusCode === 204 || res.statusCode === 304 || res.headers['content-length'] === '0')
    return res;
  let decoders: Transform[];
  try {
    decoders = codings.reverse().map(decoderFor);
  } catch (err) {
    res.body.destroy();
    throw err;
  }
  const { 'content-length': _length, 'content-range': _range, 'accept-ranges': _ranges, ...headers } = res.headers;
  // pipeline destroys every stage when one fails or the reader destroys the last: the connection closes as without
  // decoding.
  const body = pipeline([res.body, ...decoders], () => {}) as unknown as Readable;
  return { statusCode: res.statusCode, headers, body, text: (maxBytes) => readCapped(body, headers, maxBytes) };
}
