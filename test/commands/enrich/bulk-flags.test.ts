import { describe, expect, it } from 'vitest';
import { bulkOptions } from '../../../src/commands/enrich/bulk-flags.js';
import { refusedBeforeSending } from '../../helpers/mock-api.js';

describe('bulkOptions', () => {
  // The refusals of one value (--concurrency 0 or 65, --max-rows x) are the flags' own: test/commands/flag-values.test.ts.
  it('sizes the concurrency itself unless forced', () => {
    const flags = { input: undefined, column: undefined, concurrency: undefined, maxRows: undefined };
    expect(bulkOptions(['a'], flags)).toEqual({
      values: ['a'],
      input: undefined,
      column: undefined,
      concurrency: undefined,
      maxRows: undefined,
      restart: false,
      csv: {
        delimiter: undefined,
        relaxColumns: false,
        named: { delimiter: '--delimiter', relaxColumns: '--relax-columns' },
      },
      // The workflow's messages name what it was given by these flags.
      named: {
        input: '--input',
        column: '--column',
        byEmail: 'enrich email, batch --mode basic|advanced',
        maxRows: '--max-rows',
        restart: '--restart',
        noStore: '--no-store',
        maxAge: '--max-age',
      },
    });
    expect(bulkOptions([], { ...flags, input: 'x.csv', maxRows: 3, concurrency: 64 })).toMatchObject({
      input: 'x.csv',
      maxRows: 3,
      concurrency: 64,
    });
  });
});

describe('values as arguments or with --input, checked by the verb before anything is read or sent (exit 2)', () => {
  it.each([
    [
      ['enrich', 'handle', 'nasa', '--platform', 'instagram', '--input', 'x.csv'],
      'error: Give the handles as arguments or with --input, not both.\n',
    ],
    [
      ['socials', 'nasa', '--platform', 'instagram', '--input', 'x.csv'],
      'error: Give the handles as arguments or with --input, not both.\n',
    ],
    [['enrich', 'email', 'a@example.com', '--column', 'mail'], 'error: --column needs --input.\n'],
    [
      ['enrich', 'handle', 'nasa', '--platform', 'instagram', '--delimiter', ';'],
      'error: --delimiter needs --input.\n',
    ],
    [['enrich', 'email', 'a@example.com', '--relax-columns'], 'error: --relax-columns needs --input.\n'],
  ])('%j', async (argv, message) => {
    expect(await refusedBeforeSending(argv)).toBe(message);
  });

  it('nothing at all: the hint says how to give them', async () => {
    expect(await refusedBeforeSending(['enrich', 'email'])).toMatch(
      /^error: No email given\.\n.*Pass one or more emails, or --input <file\.csv\|->\.\n$/,
    );
  });
});
