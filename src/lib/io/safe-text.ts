// Text from strangers (names, bios, error bodies) shows controls as visible escapes on a terminal, so data can never
// set the title, clear the screen, plant a link or overwrite output, nor an invisible format character (a bidi
// override, a zero-width space) reverse a handle or make two look alike. Machine formats keep data exactly.

/** Bidi embeddings, overrides, isolates and marks, zero-width space and joiners, invisible operators, the BOM. */
const FORMAT = '\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff';

const JOINING = String.raw`[[\p{L}\p{M}]--[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}]]`;

// A joiner that is part of the writing stays: ZWJ in an emoji sequence, ZWNJ/ZWJ between letters of a script that
// uses them (Persian, Indic). The joiner is matched first, so ordinary text costs one test per character.
const WRITING_JOINER =
  String.raw`\u200d(?<=\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?\u200d)(?=\p{Extended_Pictographic})` +
  String.raw`|[\u200c\u200d](?<=${JOINING}[\u200c\u200d])(?=${JOINING})`;

/**
 * The expression for `set`, compiled on first need: V8 builds the Unicode property classes above when the
 * RegExp is made (~1-2 ms on Node 20), which text holding none of `set` or FORMAT (the joiners are among
 * them) never needs: `maybe` is that plain class, cheap to build and to test.
 */
function unsafe(set: string): { maybe: RegExp; re: () => RegExp } {
  let re: RegExp | undefined;
  return {
    maybe: new RegExp(`[${set}${FORMAT}]`),
    re: () => (re ??= new RegExp(`${WRITING_JOINER}|([${set}${FORMAT}])`, 'gv')),
  };
}

/** C0 but tab and line feed, DEL, C1 (U+009B is a one-character CSI), format characters. */
const CONTROL = unsafe(String.raw`\x00-\x08\x0b-\x1f\x7f-\x9f`);

const NAMED: Record<string, string> = { '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The one sanitiser for human-facing text, before colour: `\x1b`, `\u009b`, `\r`... shown as escapes. */
export function escapeControls(text: string): string {
  if (!CONTROL.maybe.test(text)) return text;
  const control = CONTROL.re();
  control.lastIndex = 0;
  return control.test(text)
    ? text.replace(control, (match, char: string | undefined) => (char === undefined ? match : visible(char)))
    : text;
}

const JSON_UNSAFE = unsafe(String.raw`\x7f-\x9f`);

/** Escapes what JSON.stringify leaves raw (DEL, C1, format characters) as `\u0080`...: valid JSON, same data. */
export function escapeJsonC1(json: string): string {
  if (!JSON_UNSAFE.maybe.test(json)) return json;
  const unsafeJson = JSON_UNSAFE.re();
  unsafeJson.lastIndex = 0;
  return unsafeJson.test(json)
    ? json.replace(unsafeJson, (match, char: string | undefined) =>
        char === undefined ? match : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
      )
    : json;
}
