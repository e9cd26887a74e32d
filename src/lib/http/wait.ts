/**
 * What the HTTP client tells about requests waiting for their answer, so the terminal can show a
 * spinner on a slow one (the terminal object implements `RequestWaits`; lib/http knows no terminal).
 */

/** One request waiting for its answer. */
export interface WaitHandle {
  /** Changes what the wait says ("Rate limited; retrying in 3 s"). */
  update(text: string): void;
  /** The answer came (or the request failed for good): this wait is over. */
  end(): void;
}

/** The port the HTTP client reports waits through. */
export interface RequestWaits {
  beginWait(text: string): WaitHandle;
}

/** Path prefixes under `/public/v1/` and what a person is waiting for, most specific first. */
const LABELS: ReadonlyArray<readonly [method: 'GET' | 'POST' | undefined, prefix: string, label: string]> = [
  ['POST', 'discovery/creators/similar/', 'Finding similar creators…'],
  [undefined, 'discovery/classifier/', 'Looking up the dictionary…'],
  ['POST', 'discovery/', 'Searching…'],
  [undefined, 'creators/enrich/', 'Enriching…'],
  [undefined, 'creators/socials/', 'Finding connected socials…'],
  [undefined, 'creators/content/posts/', 'Fetching posts…'],
  [undefined, 'creators/content/details/', 'Fetching the post…'],
  [undefined, 'creators/audience/overlap/', 'Comparing audiences…'],
  ['POST', 'enrichment/batch/', 'Sending the batch…'],
  [undefined, 'accounts/credits/', 'Checking credits…'],
];

/**
 * The spinner text of a request: what it does for the API's well-known routes, else "Waiting for
 * <host>…". Only the method and the path prefix are read, never ids, queries or bodies.
 */
export function waitLabel(method: string, url: URL, apiOrigin: string): string {
  const prefix = '/public/v1/';
  if (url.origin === apiOrigin && url.pathname.startsWith(prefix)) {
    const rest = url.pathname.slice(prefix.length);
    for (const [m, start, label] of LABELS) {
      if ((m === undefined || m === method) && rest.startsWith(start)) return label;
    }
  }
  return `Waiting for ${url.host}…`;
}
