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
