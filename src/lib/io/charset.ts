// Unicode drawing characters or ASCII, decided as `less` does: the locale (the first set of LC_ALL, LC_CTYPE, LANG;
// none is POSIX) must be UTF-8, and TERM=dumb or linux (its console font lacks eighth blocks) gets ASCII regardless.
export function unicodeAllowed(env: Record<string, string | undefined>): boolean {
  const term = env.TERM;
  if (term === 'dumb' || term === 'linux') return false;
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && /utf-?8/i.test(locale);
}
