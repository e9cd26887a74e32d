/** What `events list --page n` says when n is past the last page (the service says only "Invalid page."). */
import { ApiError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { getEventsPage, type EventFilters } from '../api/listening.js';
import { plural } from '../words.js';

/** One free read of page 1 gives the count and the page size the server applies; if it fails, `err` stands. */
export async function pastLastPage(
  http: HttpClient,
  err: ApiError,
  where: { page: number; pageSize: number | undefined; filters: EventFilters },
): Promise<ApiError> {
  let first;
  try {
    first = await getEventsPage(http, { page: 1, pageSize: where.pageSize, filters: where.filters });
  } catch {
    return err;
  }
  const size = where.pageSize ?? first.results.length;
  if (first.count === undefined || size === 0) return err;
  const pages = Math.max(1, Math.ceil(first.count / size));
  // The server's own words first (scripts may match them), then what it did not say.
  const said = /[.!?]$/.test(err.message.trim()) ? err.message.trim() : `${err.message.trim()}.`;
  return new ApiError(
    `${said} Page ${where.page} is past the last page: ${plural(first.count, 'event')} make ${plural(pages, 'page')} of ${size}.`,
    {
      status: err.status,
      code: err.code,
      hint:
        pages === 1 ? 'Leave out --page (there is one page).' : `Use --page 1 to ${pages}, or --all for every page.`,
    },
  );
}
