import { UsageError } from '../errors.js';

export type ValueKind = 'handle' | 'email';

export interface ColumnChoice {
  index: number;
  name: string;
  kind: ValueKind;
  /** The first column was taken for want of a sign: callers say so, naming --column. */
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

/** Of the CLI's own dotted columns, only these: `profile.url` or `event_value.url` are a picture's or a post's address. */
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

/** The one email check; no `;`, `,` or space, so `carla;carla@x.com` (a semicolon file read with commas) is no address. */
const EMAIL = /^[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u;

export function looksLikeEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

const norm = (h: string): string => h.trim().replace(/^["']|["']$/g, '').toLowerCase();

export function isKnownHeader(cell: string): boolean {
  return headerKind(norm(cell)) !== undefined;
}

/** A first row that is data rather than a header: an email, an `@handle` or a URL. */
export function looksLikeData(row: readonly string[]): boolean {
  return row.some((cell) => looksLikeEmail(cell) || /^@\w/.test(cell.trim()) || /^https?:\/\//i.test(cell.trim()));
}

/** `--column`, else a known header, else a column of mostly emails, else the first column, as handles. */
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
  for (let index = 0; index < header.length; index++) {
    const values = sample.map((row) => row[index] ?? '').filter((v) => v.trim() !== '').slice(0, 5);
    const handleLike = values.filter((v) => /^@[\w.]+$/.test(v.trim()) || /^https?:\/\/(www\.)?[a-z]+\.[a-z]+\/@?[\w.]+/i.test(v.trim()));
    if (values.length > 0 && handleLike.length * 2 > values.length) return { index, name: header[index] ?? '', kind: 'handle' };
  }
  return { index: 0, name: header[0] ?? '', kind: kindOf(0), guessed: true };
}
