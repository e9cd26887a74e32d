/**
 * Text from strangers (creator names, bios, captions, error bodies) on its way to a person's terminal.
 * Human-facing text shows control characters as visible escapes, so data can never set the window
 * title, clear the screen, plant a hyperlink, ring the bell or overwrite what was printed; nor can an
 * invisible format character (a bidi override, a zero-width space) show a handle reversed or make two
 * handles look the same. Machine formats keep data exactly, JSON with its C1 controls and format
 * characters written as `\u0080`, `\u202e`... so it reads safely on a terminal too.
 */

/**
 * Invisible format characters a stranger can use to disguise text: the bidi embeddings, overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069), the bidi marks (U+200E/U+200F, U+061C), the zero-width
 * space and joiners (U+200B–U+200D), the word joiner and invisible operators (U+2060–U+2064), the
 * deprecated format controls (U+206A–U+206F) and the byte-order mark used as a zero-width no-break space
 * (U+FEFF).
 */
const FORMAT = '\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff';

/** Letters and marks of the scripts that join with ZWNJ/ZWJ (not Latin, Greek, Cyrillic or the common ones). */
const JOINING = String.raw`[[\p{L}\p{M}]--[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}]]`;

/**
 * A joiner that is part of the writing, left alone: ZWJ inside an emoji sequence (👩‍💻), ZWNJ and ZWJ
 * between two letters of a script that uses them (Persian, the Indic scripts). Between Latin letters or
 * digits (`a\u200cb` against `ab`) they are escaped like the other format characters.
 */
const WRITING_JOINER =
  // The joiner is matched first and its neighbours looked at after, so ordinary text costs one test per character.
  String.raw`\u200d(?<=\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?\u200d)(?=\p{Extended_Pictographic})` +
  String.raw`|[\u200c\u200d](?<=${JOINING}[\u200c\u200d])(?=${JOINING})`;

/** The characters in `set` (captured), except a writing joiner (matched, not captured). */
function unsafe(set: string): RegExp {
  return new RegExp(`${WRITING_JOINER}|([${set}${FORMAT}])`, 'gv');
}

/** C0 controls except tab and line feed, DEL, the C1 controls (U+0080–U+009F; U+009B is a one-character CSI), format characters. */
const CONTROL = unsafe(String.raw`\x00-\x08\x0b-\x1f\x7f-\x9f`);

const NAMED: Record<string, string> = { '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text for a terminal: every control character but tab and line feed becomes a visible escape
 * (`\x1b`, `\x07`, `\r`, `\b`, `\u009b`...). The one sanitiser for human-facing text: the terminal
 * object (notices, warnings, debug lines, spinners, prompts), error printing, tables, cards and event
 * lines all go through it, then add their own colour codes.
 */
export function escapeControls(text: string): string {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, (match, char: string | undefined) => (char === undefined ? match : visible(char))) : text;
}

/** What JSON.stringify leaves raw and a terminal acts on: DEL, C1, format characters. */
const JSON_UNSAFE = unsafe(String.raw`\x7f-\x9f`);

/**
 * Serialised JSON with its C1 controls (and DEL) and format characters escaped as `\u0080`, `\u202e`...:
 * `JSON.stringify` escapes C0 but leaves these raw, and on a terminal a one-byte CSI (U+009B) acts and a
 * right-to-left override shows a handle reversed. Valid JSON stays valid (these characters only ever occur
 * inside strings) and parses back to exactly the same data.
 */
export function escapeJsonC1(json: string): string {
  JSON_UNSAFE.lastIndex = 0;
  return JSON_UNSAFE.test(json)
    ? json.replace(JSON_UNSAFE, (match, char: string | undefined) => (char === undefined ? match : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))
    : json;
}
