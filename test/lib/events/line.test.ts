import { describe, expect, it } from 'vitest';
import { humanLine } from '../../../src/lib/events/line.js';
import { displayWidth } from '../../../src/lib/io/width.js';

const event = {
  id: 4821,
  event_type: 'follower_threshold',
  date_occurance: '2026-10-28T12:00:00Z',
  creator: { platform: 'instagram', platform_id: 'carlosrodriguez_fitness' },
  event_value: { followers: 100000, threshold: 100000, caption: 'crossed the line today' },
};

describe('humanLine: an event at 60, 100 and 200 columns', () => {
  it.each([60, 100, 200])(
    'keeps the id, the type and the creator whole and says what happened at %i columns',
    (columns) => {
      const text = humanLine(event, 200, columns);
      const lines = text.split('\n');
      expect(text).toContain('#4821');
      expect(text).toContain(' follower_threshold');
      expect(lines[0]).toMatch(/ follower_threshold +instagram\/carlosrodriguez_fitness( |$)/);
      // What happened is there (cut only at its end), and the forward status ends the event.
      expect(text).toMatch(/followers=100/);
      expect(lines.at(-1)).toMatch(/ {2}-> forwarded \(HTTP 200\)$/);
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
      // One line where it fits; more (indented) where it does not.
      expect(lines.length === 1).toBe(columns === 200);
      for (const more of lines.slice(1)) expect(more.startsWith('  ')).toBe(true);
    },
  );

  it.each([36, 50, 60, 70])(
    'says who and what happened on the first line at %i columns: the date, then the time, then the id give way',
    (columns) => {
      const bio = {
        id: 31,
        event_type: 'bio_change',
        date_occurance: '2026-11-28T18:32:43Z',
        creator: { platform: 'instagram', platform_id: 'theellastrong' },
        event_value: { bio: 'new bio text' },
      };
      const lines = humanLine(bio, undefined, columns).split('\n');
      expect(lines[0]).toMatch(/(^| )bio_change {2}instagram\/theellastrong( |$)/);
      expect(lines.join('\n')).toContain('bio="new bio text"');
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
      // What gives way, in order: the date (not the time), the time, the id.
      const first = lines[0]!;
      if (columns >= 70) expect(first.startsWith('2026-11-28 18:32:43 UTC  #31  bio_change')).toBe(true);
      else if (columns >= 54) expect(first.startsWith('18:32:43 UTC  #31  bio_change')).toBe(true);
      else if (columns >= 40) expect(first.startsWith('#31  bio_change')).toBe(true);
      else expect(first).toBe('bio_change  instagram/theellastrong');
    },
  );

  it('is one whole line when piped', () => {
    const line = humanLine(event, undefined);
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain('caption="crossed the line today"');
  });
});
