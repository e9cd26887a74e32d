import type { ColumnSpec } from '../../../lib/output/index.js';

/** Table columns of an exclusion list object. */
export const LIST_COLUMNS: ColumnSpec[] = [
  { path: 'id', header: 'id', kind: 'number' },
  { path: 'name', header: 'name' },
  { path: 'platform', header: 'platform' },
  { path: 'is_default', header: 'default', kind: 'bool' },
  { path: 'handle_count', header: 'handles', kind: 'count' },
  { path: 'updated_at', header: 'updated', kind: 'date' },
];
