import { describe, expect, it } from 'vitest';
import { challengeFor, createState, createVerifier } from '../../../src/lib/auth/pkce.js';
import { canOpenBrowser, parsePasted } from '../../../src/lib/auth/login.js';

describe('PKCE', () => {
  it('matches the RFC 7636 Appendix B vector', () => {
    expect(challengeFor('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes fresh verifiers of 43-128 unreserved characters', () => {
    const a = createVerifier();
    expect(a).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(createVerifier()).not.toBe(a);
    expect(createVerifier(96)).toHaveLength(128);
    expect(() => createVerifier(16)).toThrow(RangeError);
    expect(createState()).not.toBe(createState());
  });
});

describe('login helpers', () => {
  it('reads a pasted redirect URL, a bare query, or a bare code', () => {
    expect(parsePasted('http://127.0.0.1:5000/callback?code=abc12345&state=s1')?.get('state')).toBe('s1');
    expect(parsePasted('  code=abc12345&state=s1 ')?.get('code')).toBe('abc12345');
    expect(parsePasted('http://127.0.0.1:5000/callback?error=access_denied')?.get('error')).toBe('access_denied');
    expect(parsePasted('sbx_code_AbC-123_xyz')?.get('code')).toBe('sbx_code_AbC-123_xyz');
    expect(parsePasted('not a code!')).toBeUndefined();
    expect(parsePasted('http://127.0.0.1/callback?foo=1')).toBeUndefined();
    expect(parsePasted('')).toBeUndefined();
  });

  it('does not open a browser over SSH or on Linux without a display', () => {
    expect(canOpenBrowser({ SSH_CONNECTION: '1 2 3 4' }, true)).toBe(false);
    expect(canOpenBrowser({ SSH_TTY: '/dev/pts/0' }, false, 'darwin')).toBe(false);
    expect(canOpenBrowser({}, false, 'linux')).toBe(false);
    expect(canOpenBrowser({ WAYLAND_DISPLAY: 'wayland-0' }, false, 'linux')).toBe(true);
    expect(canOpenBrowser({}, false, 'darwin')).toBe(true);
    expect(canOpenBrowser({}, true, 'linux')).toBe(true);
  });
});
