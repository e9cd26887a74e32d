/** How a team store's failures read: here, the ones that come from PgBouncer rather than the server. */
import { describe, expect, it } from 'vitest';
import { AuthError, EXIT } from '../../../src/lib/errors.js';
import { pgError, pgTarget } from '../../../src/lib/store/pg-errors.js';

const target = pgTarget('postgres://ci:s3cret@db.internal:6432/creators', {});

describe('credentials refused by PgBouncer (08P01 in its own words, not 28P01)', () => {
  it.each(['SASL authentication failed', 'password authentication failed', 'no such user'])(
    '%s: exit 4, as when the server refuses them',
    (message) => {
      const err = pgError(Object.assign(new Error(message), { code: '08P01', severity: 'FATAL' }), target);
      expect(err).toBeInstanceOf(AuthError);
      expect(err.exitCode).toBe(EXIT.AUTH);
      expect(err.message).toBe(`The team store at db.internal:6432 refused the credentials: ${message}.`);
    },
  );

  it('another protocol violation is not a credentials problem', () => {
    const err = pgError(Object.assign(new Error('unsupported startup parameter: options'), { code: '08P01' }), target);
    expect(err).not.toBeInstanceOf(AuthError);
    expect(err.exitCode).toBe(EXIT.ERROR);
  });
});
