/** The one drawing rule: the locale's character set (LC_ALL > LC_CTYPE > LANG, as the C library reads it) and the platform. */
import { describe, expect, it } from 'vitest';
import { cursorAllowed, unicodeAllowed } from '../../../src/lib/io/charset.js';

describe('unicodeAllowed', () => {
  it.each([
    [{ LANG: 'en_US.UTF-8' }, true],
    [{ LANG: 'C.utf8' }, true],
    [{ LC_ALL: 'de_DE.UTF-8', LANG: 'C' }, true],
    [{ LC_CTYPE: 'en_US.UTF-8', LANG: 'C' }, true],
    [{ LANG: 'C' }, false],
    [{ LANG: 'POSIX' }, false],
    [{ LANG: 'en_US.ISO-8859-1' }, false],
    [{ LC_ALL: 'C', LANG: 'en_US.UTF-8' }, false],
    // An empty variable is not set: the next one decides.
    [{ LC_ALL: '', LANG: 'en_US.UTF-8' }, true],
    // Nothing set on POSIX is the POSIX locale (cron, Docker, CI).
    [{}, false],
    [{ LC_ALL: '', LC_CTYPE: '', LANG: '' }, false],
    // The terminal type does not change the character set: TERM=dumb is about the cursor.
    [{ LANG: 'en_US.UTF-8', TERM: 'dumb' }, true],
    [{ LANG: 'C', TERM: 'xterm-256color' }, false],
  ])('linux %j -> %s', (env, expected) => {
    expect(unicodeAllowed(env, 'linux')).toBe(expected);
    expect(unicodeAllowed(env, 'darwin')).toBe(expected);
  });

  it('on Windows with no locale variable set: Unicode (its terminals draw it); a locale set still decides', () => {
    expect(unicodeAllowed({}, 'win32')).toBe(true);
    expect(unicodeAllowed({ LANG: '' }, 'win32')).toBe(true);
    expect(unicodeAllowed({ LANG: 'C' }, 'win32')).toBe(false);
    expect(unicodeAllowed({ LANG: 'en_US.UTF-8' }, 'win32')).toBe(true);
  });
});

describe('cursorAllowed', () => {
  it('everywhere but TERM=dumb', () => {
    expect(cursorAllowed({ TERM: 'dumb' })).toBe(false);
    expect(cursorAllowed({ TERM: 'xterm-256color' })).toBe(true);
    expect(cursorAllowed({})).toBe(true);
  });
});
