/**
 * What a terminal would show after receiving `text`: a tiny emulator of the sequences this CLI and ora
 * write (line feeds, carriage return, cursor to column, cursor up, erase in line). Colours, cursor
 * visibility and synchronized-output markers change nothing visible and are skipped. Lines are returned
 * with trailing blanks removed and trailing empty lines dropped, so "no spinner left" is checkable.
 */
export function screen(text: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = (): string[] => (lines[row] ??= []);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\n') {
      row++;
      col = 0;
      line();
    } else if (ch === '\r') {
      col = 0;
    } else if (ch === '\x1b' && text[i + 1] === '[') {
      const m = /^\x1b\[([?\d;]*)([A-Za-z])/.exec(text.slice(i));
      if (!m) continue;
      i += m[0].length - 1;
      const n = m[1] === '' || m[1]?.startsWith('?') ? undefined : Number(m[1]);
      switch (m[2]) {
        case 'G':
          col = Math.max(0, (n ?? 1) - 1);
          break;
        case 'A':
          row = Math.max(0, row - (n ?? 1));
          break;
        case 'K': {
          const cells = line();
          if ((n ?? 0) === 0) cells.length = Math.min(cells.length, col);
          else if (n === 1) for (let c = 0; c <= col && c < cells.length; c++) cells[c] = ' ';
          else cells.length = 0;
          break;
        }
        default:
          break; // colours (m), cursor shown/hidden and synchronized output (h/l)
      }
    } else {
      const cells = line();
      while (cells.length < col) cells.push(' ');
      cells[col] = ch;
      col++;
    }
  }
  const shown = lines.map((cells) => cells.join('').replace(/\s+$/, ''));
  while (shown.length > 0 && shown[shown.length - 1] === '') shown.pop();
  return shown;
}

/** Ora's dots spinner frames: any of them on screen is a spinner left behind. */
export const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
