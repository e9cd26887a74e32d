/** Unicode or ASCII: the locale's character set (LC_ALL > LC_CTYPE > LANG, as `less` reads it) and the terminal. */
import { describe, expect, it } from 'vitest';
import { unicodeAllowed } from '../../../src/lib/io/charset.js';

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
    // Nothing set is the POSIX locale.
    [{}, false],
    [{ LANG: 'en_US.UTF-8', TERM: 'dumb' }, false],
    [{ LANG: 'en_US.UTF-8', TERM: 'linux' }, false],
    [{ LANG: 'en_US.UTF-8', TERM: 'xterm-256color' }, true],
  ])('%j -> %s', (env, expected) => {
    expect(unicodeAllowed(env)).toBe(expected);
  });
});
