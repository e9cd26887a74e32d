import type { Command } from 'commander';

/**
 * Formats the "Examples:" block appended to a command's --help: `$ command  # what` lines when they all fit
 * `width`, else each comment on its own line(s) above its command, a blank line between examples (as gh
 * does), so a narrow terminal does not wrap a comment into the next command. A command is never broken.
 */
export function examples(list: ReadonlyArray<readonly [command: string, what: string]>, width = Infinity): string {
  const longest = Math.max(...list.map(([c]) => c.length));
  const lines = list.map(([c, w]) => `  $ ${c.padEnd(longest)}  # ${w}`);
  if (lines.every((line) => line.length <= width)) return `\nExamples:\n${lines.join('\n')}\n`;
  return `\nExamples:\n${list.map(([c, w]) => `${wrapWords(w, width, '  # ')}\n  $ ${c}`).join('\n\n')}\n`;
}

/** Help text after the examples: as written when it fits `width`, else each paragraph re-wrapped to it. */
export function helpParagraphs(text: string, width = Infinity): string {
  if (text.split('\n').every((line) => line.length <= width)) return text;
  return text
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph.trim() === '' ? paragraph : wrapWords(paragraph.replace(/\s+/g, ' ').trim(), width, ''),
    )
    .join('\n\n')
    .replace(/^(?!\n)/, '\n')
    .replace(/\n*$/, '\n');
}

/** Words of `text` on lines of at most `width` columns, each starting with `prefix` (a longer word stays whole). */
function wrapWords(text: string, width: number, prefix: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(prefix + line);
  return lines.join('\n');
}

/** The width commander wraps this command's help to (the terminal's, or 80 when not a terminal). */
export function helpWidth(command: Command): number {
  return command.configureOutput().getOutHelpWidth?.() ?? 80;
}
