/**
 * The service's limits that both the CLI (checked before sending) and the sandbox (enforced) hold:
 * one copy each. Sources: service-spec.md (Limits) and api-contract.md.
 */

/** Creators per Discovery or Similar page: at most 50; 20 when `paging.limit` is not sent (api-contract §3). */
export const DISCOVERY_PAGE_LIMIT = { default: 20, max: 50 } as const;

/** A Discovery or Similar query reaches at most this many results, whatever the paging. */
export const DISCOVERY_RESULT_CAP = 10_000;

/** Handles one Discovery request may leave out through `exclude_handles`. */
export const MAX_EXCLUDE_HANDLES = 10_000;

/** Handles one add or remove request of an exclusion list takes. */
export const EXCLUSION_ENTRIES_PER_REQUEST = 10_000;

/** `page_size` of the listening events list: 10 when not sent, 1 to 100. */
export const EVENTS_PAGE_SIZE = { default: 10, max: 100 } as const;

/** `page_size` of a campaign's content feed: the same pager as the events list (10 when not sent, 1 to 100). */
export const CONTENT_PAGE_SIZE = EVENTS_PAGE_SIZE;

/** `limit` of an exclusion list's entries page: 1000 when not sent, 1 to 2000. */
export const EXCLUSION_ENTRIES_PAGE = { default: 1000, max: 2000 } as const;

/** A batch file: at most 10 MB (the service does not say whether decimal or binary megabytes). */
export const BATCH_FILE_MB = 10;

/** Social listening, per account: subscriptions, campaigns not archived, and distinct monitored creators (the
 * sandbox's figures; the service publishes none, and `listening usage` reports them). */
export const LISTENING_LIMITS = { subscriptions: 50, campaigns: 20, creators: 10_000 } as const;

/** Emails one legacy JSON batch create (`{"emails": [...]}`, the n8n node's) takes: the row limit the official
 * MCP client states for a batch file. */
export const LEGACY_BATCH_EMAILS_MAX = 10_000;
