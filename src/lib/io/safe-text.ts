/**
 * Text from strangers (creator names, bios, captions, error bodies) on its way to a person's terminal.
 * Human-facing text shows control characters as visible escapes, so data can never set the window
 * title, clear the screen, plant a hyperlink, ring the bell or overwrite what was printed; machine
 * formats keep data exactly, JSON with its C1 controls written as `\u0080`... so `jq -r` is safe too.
 */

/** C0 controls except tab and line feed, DEL, and the C1 controls (U+0080–U+009F; U+009B is a one-character CSI). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

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
  return CONTROL.test(text) ? text.replace(CONTROL, visible) : text;
}

const C1 = /[\x7f-\x9f]/g;

/**
 * Serialised JSON with its C1 controls (and DEL) escaped as `\u0080`...: `JSON.stringify` escapes C0 but
 * leaves these raw, and `jq -r` on a terminal would then print a one-byte CSI (U+009B). Valid JSON stays valid
 * (these characters only ever occur inside strings) and parses back to exactly the same data.
 */
export function escapeJsonC1(json: string): string {
  C1.lastIndex = 0;
  return C1.test(json) ? json.replace(C1, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}
