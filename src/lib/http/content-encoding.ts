/**
 * Bodies sent with a `Content-Encoding` the client did not ask for: a storage host serves an object
 * stored gzipped as gzip whatever the request says, and undici's `request` and node:http hand the
 * bytes on as they came. They are decoded here, streaming (node:zlib), for every response: a download
 * writes the decoded bytes, and a body read whole is capped on its decoded size, so a small compressed
 * body cannot unfold into gigabytes of memory. An encoding node:zlib cannot decode is refused.
 */
import { pipeline, type Readable, type Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { readCapped, type RawResponse } from './transport.js';

/** A `Content-Encoding` this client cannot decode (`compress`, or zstd on a Node without it). */
export class UnsupportedEncoding extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported content encoding '${encoding}'`);
    this.name = 'UnsupportedEncoding';
  }
}

type ZstdZlib = { createZstdDecompress?: () => Transform };

function decoderFor(coding: string): Transform {
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

/** The codings of a `Content-Encoding` header, in the order they were applied; `identity` dropped. */
export function contentCodings(header: string | string[] | undefined): string[] {
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  return raw
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * The response with its body decoded, or the response itself when it has no content coding. Headers
 * that describe the encoded bytes go (`content-length`, `content-range`, `accept-ranges`: a Range of
 * the encoded bytes cannot be resumed in the decoded ones). A corrupt stream errors the body its
 * reader sees. Throws `UnsupportedEncoding` (the body is destroyed) for a coding zlib lacks.
 */
export function decodeContent(res: RawResponse): RawResponse {
  const codings = contentCodings(res.headers['content-encoding']);
  // No body to decode (zlib would call an empty body a truncated stream).
  if (codings.length === 0 || res.statusCode === 204 || res.statusCode === 304 || res.headers['content-length'] === '0') return res;
  let decoders: Transform[];
  try {
    // Decoded in the reverse of the order they were applied.
    decoders = codings.reverse().map(decoderFor);
  } catch (err) {
    res.body.destroy();
    throw err;
  }
  const { 'content-length': _length, 'content-range': _range, 'accept-ranges': _ranges, ...headers } = res.headers;
  // pipeline destroys every stage when one fails or when the reader destroys the last: the connection
  // is closed as it would be without decoding.
  const body = pipeline([res.body, ...decoders], () => {}) as unknown as Readable;
  return { statusCode: res.statusCode, headers, body, text: (maxBytes) => readCapped(body, headers, maxBytes) };
}
