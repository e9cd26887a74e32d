import type { ColumnSpec, DataRecord, Format, OutputSettings } from '../../../src/lib/output/types.js';

export const settings = (format: Format, extra: Partial<OutputSettings> = {}): OutputSettings => ({
  format,
  formatExplicit: true,
  color: false,
  // A UTF-8 terminal (lib/io/charset.ts); ASCII tests pass unicode: false.
  unicode: true,
  quiet: false,
  ...extra,
});

export const creators: DataRecord[] = [
  {
    user_id: 'u1',
    profile: { username: 'alice', full_name: 'Alice, "Al" Smith', followers: 12345, engagement_percent: 3.456 },
    tags: ['fitness', 'travel'],
  },
  {
    user_id: 'u2',
    profile: { username: 'bob', full_name: 'Bob\nJones', followers: '1234567', engagement_percent: '0.5' },
    tags: [],
  },
];

export const columns: ColumnSpec[] = [
  { path: 'profile.username', header: 'USERNAME' },
  { path: 'profile.followers', header: 'FOLLOWERS', kind: 'count' },
  { path: 'profile.engagement_percent', header: 'ER', kind: 'percent' },
];

export async function* slowly(records: DataRecord[]): AsyncGenerator<DataRecord> {
  for (const record of records) {
    await new Promise((resolve) => setImmediate(resolve));
    yield record;
  }
}

export async function* failingAfter(records: DataRecord[], error: Error): AsyncGenerator<DataRecord> {
  yield* records;
  throw error;
}
