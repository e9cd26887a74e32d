import { UsageError } from '../errors.js';

export type ValueKind = 'handle' | 'email';

export interface ColumnChoice {
  index: number;
  name: string;
  kind: ValueKind;
  /** No header or content said so: the first column was taken. Callers say so, with --column as the way out. */
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
 * The last part of a dotted column the CLI itself writes (csv flattens records to dot paths) that names
 * the handle or the email unambiguously: `profile.username` (search, similar), `creator.platform_id`
 * (events), `result.email`. Only these: `profile.url` or `event_value.url` end in a name that is a handle
 * header on its own, but there they are a profile picture's or a post's address.
 */
const DOTTED_HANDLE = ['handle', 'username', 'user_name', 'platform_id'];
const DOTTED_EMAIL = ['email', 'email_address'];

/** `profile.username` -> `username`; undefined for a header without a dot. */
function lastPart(name: string): string | undefined {
  const i = name.lastIndexOf('.');
  return i > 0 && i < name.length - 1 ? name.slice(i + 1) : undefined;
}

/** What a (normalised) header names: exactly a known header, or a dotted column the CLI writes. */
function headerKind(name: string): ValueKind | undefined {
  if (EMAIL_HEADERS.includes(name)) return 'email';
  if (HANDLE_HEADERS.includes(name)) return 'handle';
  const last = lastPart(name);
  if (last !== undefined && DOTTED_EMAIL.includes(last)) return 'email';
  if (last !== undefined && DOTTED_HANDLE.includes(last)) return 'handle';
  return undefined;
}

/**
 * The one email check (column detection and `enrich email` before sending): one `@`, a local part of the
 * characters an address may hold unquoted (no `;`, `,` or space, so `carla;carla@x.com` from a
 * semicolon file read with commas is not an address), a dotted domain.
 */
const EMAIL = /^[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u;

/** True when `value` (trimmed) has the form of an email address. */
export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

const norm = (h: string): string => h.trim().replace(/^["']|["']$/g, '').toLowerCase();

/** A header cell naming a handle or email column (`handle`, `username`, `email`...). */
export function isKnownHeader(cell: string): boolean {
  return headerKind(norm(cell)) !== undefined;
}

/** A first row that is data rather than a header: an email, an `@handle` or a URL. */
export function looksLikeData(row: readonly string[]): boolean {
  return row.some((cell) => looksLikeEmail(cell) || /^@\w/.test(cell.trim()) || /^https?:\/\//i.test(cell.trim()));
}

/**
 * Picks the column holding handles or emails. `explicit` (`--column`) wins and must exist; otherwise
 * a recognised header (email/handle names, case-insensitive); otherwise the column whose first values
 * are mostly emails; otherwise the first column, as handles. `want` restricts the kind when the command
 * knows it (enrich email wants emails).
 */
export function detectColumn(header: readonly string[], sample: readonly (readonly string[])[], want?: ValueKind, explicit?: string): ColumnChoice {
  const choice = pickColumn(header, sample, want, explicit);
  if (want === 'handle') refuseEmailsAsHandles(choice, sample);
  return choice;
}

/** Sending addresses as handles wastes a paid run: a handle mode given an email column is a usage error. */
function refuseEmailsAsHandles(choice: ColumnChoice, sample: readonly (readonly string[])[]): void {
  const values = sample.map((row) => row[choice.index] ?? '').filter((v) => v.trim() !== '').slice(0, 5);
  const emailHeader = headerKind(norm(choice.name)) === 'email';
  const mostlyEmails = values.length > 0 && values.filter(looksLikeEmail).length * 2 > values.length;
  if (emailHeader || mostlyEmails) {
    throw new UsageError(`Column '${choice.name}' holds email addresses, but this mode enriches handles.`, {
      hint: 'Use a column of handles (--column), or enrich by email (enrich email, batch --mode basic|advanced).',
    });
  }
}

function pickColumn(header: readonly string[], sample: readonly (readonly string[])[], want?: ValueKind, explicit?: string): ColumnChoice {
  const names = header.map(norm);
  const kindOf = (index: number): ValueKind => {
    if (want) return want;
    const named = headerKind(names[index] ?? '');
    if (named) return named;
    const values = sample.map((row) => row[index] ?? '').filter((v) => v.trim() !== '').slice(0, 5);
    return values.length > 0 && values.filter(looksLikeEmail).length * 2 > values.length ? 'email' : 'handle';
  };
  if (explicit !== undefined) {
    const index = names.indexOf(norm(explicit));
    if (index < 0) {
      throw new UsageError(`Column '${explicit}' is not in the input.`, { hint: `Columns: ${header.join(', ') || '(none)'}.` });
    }
    return { index, name: header[index] ?? explicit, kind: kindOf(index) };
  }
  const byHeader = (list: string[]): number => names.findIndex((n) => list.includes(n));
  const order = want === 'email' ? [EMAIL_HEADERS] : want === 'handle' ? [HANDLE_HEADERS] : [EMAIL_HEADERS, HANDLE_HEADERS];
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
    const values = sample.map((row) => row[index] ?? '').filter((v) => v.trim() !== '').slice(0, 5);
    if (values.length > 0 && values.filter(looksLikeEmail).length * 2 > values.length && want !== 'handle') {
      return { index, name: header[index] ?? '', kind: 'email' };
    }
  }
  if (header.length === 0) throw new UsageError('The input has no columns.');
  if (want === 'email') {
    throw new UsageError('No email column found in the input.', { hint: 'Name it with --column.' });
  }
  // Handles by content: a column whose first values start with @ or are profile URLs.
  for (let index = 0; index < header.length; index++) {
    const values = sample.map((row) => row[index] ?? '').filter((v) => v.trim() !== '').slice(0, 5);
    const handleLike = values.filter((v) => /^@[\w.]+$/.test(v.trim()) || /^https?:\/\/(www\.)?[a-z]+\.[a-z]+\/@?[\w.]+/i.test(v.trim()));
    if (values.length > 0 && handleLike.length * 2 > values.length) return { index, name: header[index] ?? '', kind: 'handle' };
  }
  return { index: 0, name: header[0] ?? '', kind: kindOf(0), guessed: true };
}
