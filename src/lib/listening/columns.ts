/** The table columns of listening records (json, jsonl and csv keep every field the server sends). */
import type { ListeningKind } from '../api/listening.js';
import type { ColumnSpec } from '../output/types.js';

export const SUBSCRIPTION_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'ID', kind: 'number', keep: true },
  { path: 'name', header: 'Name', kind: 'text', priority: 2 },
  { path: 'status', header: 'Status', whole: true, priority: 3 },
  { path: 'event_types', header: 'Event types', kind: 'text', priority: 1 },
  { path: 'creators_count', header: 'Creators', kind: 'count', priority: 2 },
  { path: 'webhook_url', header: 'Webhook', whole: true, priority: -1 },
  { path: 'created_at', header: 'Created', kind: 'date', priority: 0 },
];

export const CAMPAIGN_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'ID', kind: 'number', keep: true },
  { path: 'name', header: 'Name', kind: 'text', priority: 2 },
  { path: 'status', header: 'Status', whole: true, priority: 3 },
  { path: 'days', header: 'Days', kind: 'number' },
  { path: 'start_date', header: 'Start', kind: 'date' },
  { path: 'end_date', header: 'End', kind: 'date' },
  { path: 'creators_count', header: 'Creators', kind: 'count' },
  { path: 'posts_count', header: 'Posts', kind: 'count' },
];

export const EVENT_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'ID', kind: 'number', keep: true },
  { path: 'date_occurance', header: 'Occurred', kind: 'date' },
  { path: 'event_type', header: 'Type', whole: true, priority: 3 },
  { path: 'creator.platform', header: 'Platform', whole: true, priority: 2 },
  { path: 'creator.platform_id', header: 'Creator', keep: true },
  { path: 'delivery_status', header: 'Delivery', whole: true, priority: 1 },
  { path: 'retries', header: 'Retries', kind: 'number', priority: -1 },
  { path: 'latency_seconds', header: 'Latency s', kind: 'number', priority: -2 },
];

export const CREATOR_COLUMNS: Record<ListeningKind, ColumnSpec[]> = {
  subscription: [
    { path: 'platform', header: 'Platform', whole: true, priority: 1 },
    { path: 'platform_id', header: 'Creator', keep: true },
    { path: 'added_at', header: 'Added', kind: 'date' },
    { path: 'events_count', header: 'Events', kind: 'count' },
  ],
  campaign: [
    { path: 'platform', header: 'Platform', whole: true, priority: 1 },
    { path: 'platform_id', header: 'Creator', keep: true },
    { path: 'added_at', header: 'Added', kind: 'date' },
    { path: 'posts_count', header: 'Posts', kind: 'count' },
  ],
};

/** The counts by event type give way first on a narrow terminal (`--json` has every field). */
export const SUBSCRIPTION_STATS_COLUMNS: ColumnSpec[] = [
  { path: 'platform', header: 'Platform', whole: true, priority: 1 },
  { path: 'platform_id', header: 'Creator', keep: true },
  { path: 'events', header: 'Events', kind: 'count' },
  { path: 'delivered', header: 'Delivered', kind: 'count' },
  { path: 'failed', header: 'Failed', kind: 'count' },
  { path: 'last_event_at', header: 'Last event', kind: 'date', priority: -1 },
  { path: 'added_at', header: 'Added', kind: 'date', priority: -2 },
  { path: 'new_post', header: 'New posts', kind: 'count', priority: -3 },
  { path: 'bio_change', header: 'Bio changes', kind: 'count', priority: -3 },
  { path: 'follower_threshold', header: 'Follower thresholds', kind: 'count', priority: -3 },
];
