import { UsageError } from '../errors.js';

export type ValueKind = 'handle' | 'email';

export interface ColumnChoice {
  index: number;
  name: string;
  kind: ValueKind;
  /** The first column was taken for want of a sign: callers say so, naming the way to pick another. */
  guessed?: boolean;
}

const HANDLE_HEADERS = [
  'handle',
  'handles',
  'username',
  'usernames',
  'user_name',
  'user',
  'account',
  'creator',
  'influencer',
  'profile',
  'profile_url',
  'url',
  'link',
  'channel',
  'ig',
  'instagram',
  'tiktok',
  'youtube',
  'twitter',
  'x',
  'twitch',
  'onlyfans',
  // The creator of listening records (`listening ... creators`) and of events (`creator.platform_id`).
  'platform_id',
];
const EMAIL_HEADERS = ['email', 'emails', 'e-mail', 'email_address'];

/**
 * Of the CLI's own dotted columns, only these: `profile.url` or `event_value.url` are a picture's or a post's address.
 */
const DOTTED_HANDLE = ['handle', 'username', 'user_name', 'platform_id'];
const DOTTED_EMAIL = ['email', 'email_address'];

function lastPart(name: string): string | undefined {
  const i = name.lastIndexOf('.');
  return i > 0 && i < name.length - 1 ? name.slice(i + 1) : undefined;
}

function headerKind(name: string): ValueKind | undefined {
  if (EMAIL_HEADERS.includes(name)) return 'email';
  if (HANDLE_HEADERS.includes(name)) return 'handle';
  const last = lastPart(name);
  if (last !== undefined && DOTTED_EMAIL.includes(last)) return 'email';
  if (last !== undefined && DOTTED_HANDLE.includes(last)) return 'handle';
  return undefined;
}

/**
 * The one email check; no `;`, `,` or space, so `carla;carla@x.com` (a semicolon file read with commas) is no address.
 */
const EMAIL = /^[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u;

export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

const norm = (h: string): string =>
  h
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();

/**
 * Words that name a column of handles or emails inside a longer name (`ig_handle`, `Creator Username`, `work email`).
 */
const HEADER_WORDS: Record<ValueKind, readonly string[]> = {
  handle: ['handle', 'handles', 'username', 'usernames'],
  email: ['email', 'emails'],
};

function wordKind(name: string): ValueKind | undefined {
  const words = name.split(/[^\p{L}\p{N}]+/u);
  if (words.some((w) => HEADER_WORDS.email.includes(w))) return 'email';
  if (words.some((w) => HEADER_WORDS.handle.includes(w))) return 'handle';
  return undefined;
}

/** One cell the way a creator is written: a handle, `@handle`, a numeric or channel id, `platform:handle`. */
const ONE_VALUE = /^(?:[a-z]+:)?@?[\p{L}\p{N}_.-]+$/iu;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * The one header rule, for every command that reads a file of creators: the first row is data when it holds an
 * email, an `@handle` or a URL; else the header when it names a known column; else data when it holds a number
 * among several cells or is a single value written as a creator is (a handle list; in an email list only an
 * email is). So a header-less list loses no row.
 */
export function isHeaderRow(row: readonly string[], kind: ValueKind = 'handle'): boolean {
  // No header holds an address, an `@handle` or a URL, whatever its other cells are called (`@ann,x`).
  if (looksLikeData(row)) return false;
  if (row.some((c) => headerKind(norm(c)) !== undefined || wordKind(norm(c)) !== undefined)) return true;
  const cells = row.map((c) => c.trim());
  if (cells.length > 1) return !cells.some((c) => NUMBER.test(c));
  // A lone email is data already; a lone word in a list of emails (`contacts`) is its header.
  return kind === 'email' || !ONE_VALUE.test(cells[0] ?? '');
}

/** Signs of data in a first row: an email, an `@handle` or a URL. */
function looksLikeData(row: readonly string[]): boolean {
  return row.some((cell) => looksLikeEmail(cell) || /^@\w/.test(cell.trim()) || /^https?:\/\//i.test(cell.trim()));
}

/**
 * How messages name the way to pick a column and where a file of emails goes: the verb's words; absent (a verb that
 * picks no column), neither is offered.
 */
export interface ColumnNames {
  column: string;
  byEmail: string;
}

/** `explicit`, else a known header, else a column of mostly emails, else the first column, as handles. */
export function detectColumn(
  header: readonly string[],
  sample: readonly (readonly string[])[],
  want?: ValueKind,
  explicit?: string,
  named?: ColumnNames,
): ColumnChoice {
  const choice = pickColumn(header, sample, want, explicit, named);
  if (want === 'handle') refuseEmailsAsHandles(choice, sample, named);
  return choice;
}

/** Sending addresses as handles wastes a paid run: a handle mode given an email column is a usage error. */
function refuseEmailsAsHandles(
  choice: ColumnChoice,
  sample: readonly (readonly string[])[],
  named: ColumnNames | undefined,
): void {
  const values = sample
    .map((row) => row[choice.index] ?? '')
    .filter((v) => v.trim() !== '')
    .slice(0, 5);
  const emailHeader = headerKind(norm(choice.name)) === 'email';
  const mostlyEmails = values.length > 0 && values.filter(looksLikeEmail).length * 2 > values.length;
  if (emailHeader || mostlyEmails) {
    throw new UsageError(`Column '${choice.name}' holds email addresses, but this mode enriches handles.`, {
      hint:
        named === undefined
          ? 'Use a column of handles.'
          : `Use a column of handles (${named.column}), or enrich by email (${named.byEmail}).`,
    });
  }
}

function pickColumn(
  header: readonly string[],
  sample: readonly (readonly string[])[],
  want: ValueKind | undefined,
  explicit: string | undefined,
  named: ColumnNames | undefined,
): ColumnChoice {
  const names = header.map(norm);
  const kindOf = (index: number): ValueKind => {
    if (want) return want;
    const named = headerKind(names[index] ?? '');
    if (named) return named;
    const values = sample
      .map((row) => row[index] ?? '')
      .filter((v) => v.trim() !== '')
      .slice(0, 5);
    return values.length > 0 && values.filter(looksLikeEmail).length * 2 > values.length ? 'email' : 'handle';
  };
  if (explicit !== undefined) {
    const index = names.indexOf(norm(explicit));
    if (index < 0) {
      throw new UsageError(`Column '${explicit}' is not in the input.`, {
        hint: `Columns: ${header.join(', ') || '(none)'}.`,
      });
    }
    return { index, name: header[index] ?? explicit, kind: kindOf(index) };
  }
  const byHeader = (list: string[]): number => names.findIndex((n) => list.includes(n));
  const order =
    want === 'email' ? [EMAIL_HEADERS] : want === 'handle' ? [HANDLE_HEADERS] : [EMAIL_HEADERS, HANDLE_HEADERS];
  for (const list of order) {
    const index = byHeader(list);
    if (index >= 0) return { index, name: header[index] ?? '', kind: kindOf(index) };
  }
  // The CLI's own output as input: a dotted column it writes (`profile.username`, `creator.platform_id`).
  const kinds: ValueKind[] = want ? [want] : ['email', 'handle'];
  for (const kind of kinds) {
    const index = names.findIndex((n) => n.includes('.') && headerKind(n) === kind);
    if (index >= 0) return { index, name: header[index] ?? '', kind: kindOf(index) };
  }
  for (let index = 0; index < header.length; index++) {
    const values = sample
      .map((row) => row[index] ?? '')
      .filter((v) => v.trim() !== '')
      .slice(0, 5);
    if (values.length > 0 && values.filter(looksLikeEmail).length * 2 > values.length && want !== 'handle') {
      return { index, name: header[index] ?? '', kind: 'email' };
    }
  }
  if (header.length === 0) throw new UsageError('The input has no columns.');
  // A longer name holding a header word (`ig_handle`, `Work Email`): the header rule read it as a header too.
  for (const kind of kinds) {
    const index = names.findIndex((n) => wordKind(n) === kind);
    if (index >= 0) return { index, name: header[index] ?? '', kind };
  }
  if (want === 'email') {
    throw new UsageError('No email column found in the input.', {
      hint: named === undefined ? undefined : `Name it with ${named.column}.`,
    });
  }
  for (let index = 0; index < header.length; index++) {
    const values = sample
      .map((row) => row[index] ?? '')
      .filter((v) => v.trim() !== '')
      .slice(0, 5);
    const handleLike = values.filter(
      (v) => /^@[\w.]+$/.test(v.trim()) || /^https?:\/\/(www\.)?[a-z]+\.[a-z]+\/@?[\w.]+/i.test(v.trim()),
    );
    if (values.length > 0 && handleLike.length * 2 > values.length)
      return { index, name: header[index] ?? '', kind: 'handle' };
  }
  return { index: 0, name: header[0] ?? '', kind: kindOf(0), guessed: true };
}
