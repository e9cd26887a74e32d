/**
 * The one drawing rule, asked by every table, card, chart and spinner: Unicode when the locale's character set
 * is UTF-8 (the first set of LC_ALL, LC_CTYPE, LANG, as the C library reads it; an empty one is unset); ASCII
 * when it is not, and on POSIX systems when none is set (cron, Docker, CI run in the POSIX locale); Unicode on
 * Windows with none set, where the terminals draw it and no locale variable is the norm.
 */
export function unicodeAllowed(env: Record<string, string | undefined>, platform: NodeJS.Platform): boolean {
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((value) => value !== undefined && value !== '');
  if (locale === undefined) return platform === 'win32';
  return /utf-?8/i.test(locale);
}

/** TERM=dumb (an Emacs shell, an IDE console) has no cursor control: no spinner frames, progress as whole lines. */
export function cursorAllowed(env: Record<string, string | undefined>): boolean {
  return env.TERM !== 'dumb';
}
