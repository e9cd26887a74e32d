/**
 * Whether the terminal takes Unicode drawing characters (block elements, `·`, `▲`) or only ASCII. Decided
 * from the environment, as `less` does: the locale's character set (the first of LC_ALL, LC_CTYPE, LANG that
 * is set; none set is the POSIX locale, ASCII) must be UTF-8, and a dumb terminal (Emacs shell, some IDE
 * consoles) or the Linux console (no eighth blocks in its font) gets ASCII whatever the locale. Colour is a
 * separate decision (`--no-color`, NO_COLOR, TERM=dumb): a UTF-8 terminal without colour still gets Unicode.
 */
export function unicodeAllowed(env: Record<string, string | undefined>): boolean {
  const term = env.TERM;
  if (term === 'dumb' || term === 'linux') return false;
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && /utf-?8/i.test(locale);
}
