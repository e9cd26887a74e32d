import { createHash, randomBytes } from 'node:crypto';

/** PKCE (RFC 7636), S256 only: 32 random bytes are 43 base64url characters, the shortest the RFC allows. */
export function createVerifier(bytes = 32): string {
  const verifier = randomBytes(bytes).toString('base64url');
  if (verifier.length < 43 || verifier.length > 128) throw new RangeError('PKCE verifier must be 43-128 characters');
  return verifier;
}

export function challengeFor(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A random `state` value to tie the redirect back to this login attempt (CSRF protection). */
export function createState(): string {
  return randomBytes(16).toString('base64url');
}
