/**
 * Handle normalisation as the real API does it for exclusion lists and lookups, shared by the sandbox
 * and the CLI's purchase memory (one creator, one key)
 * (service-spec.md: "lowercased, leading @ stripped, URLs parsed").
 */

/** Path prefixes that come before the handle in some profile URLs. */
const URL_PREFIXES = new Set(['c', 'channel', 'user', 'u']);

/**
 * `@Foo`, `foo`, `https://www.instagram.com/foo/`, `youtube.com/@foo`, `x.com/foo?s=1` -> `foo`.
 * Returns '' for input with no handle in it.
 */
export function normalizeHandle(input: string): string {
  let text = input.trim();
  const looksLikeUrl = /^https?:\/\//i.test(text) || /^(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+\//i.test(text);
  if (looksLikeUrl) {
    try {
      const url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
      const segments = url.pathname.split('/').filter(Boolean);
      const first = segments[0] ?? '';
      text = URL_PREFIXES.has(first.toLowerCase()) && segments[1] ? segments[1] : first;
      text = decodeURIComponent(text);
    } catch {
      // Not a URL after all: treat it as a handle.
    }
  }
  return text.replace(/^@+/, '').trim().toLowerCase();
}
