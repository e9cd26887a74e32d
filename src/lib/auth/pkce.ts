import { createHash, randomBytes } from 'node:crypto';

/**
 * PKCE (RFC 7636), S256 only. The verifier is 32 bytes from the CSPRNG in base64url: 43
 * characters of the unreserved set, the shortest length the RFC allows and plenty of entropy.
 */
export function createVerifier(bytes = 32): string {
  const verifier = randomBytes(bytes).toString('base64url');
  if (verifier.length < 43 || verifier.length > 128) throw new RangeError('PKCE verifier must be 43-128 characters');
  return verifier;
}

/** `BASE64URL(SHA256(ASCII(verifier)))`, without padding. */
export function challengeFor(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** A random `state` value to tie the redirect back to this login attempt (CSRF protection). */
export function createState(): string {
  return randomBytes(16).toString('base64url');
}
