/** Formats the "Examples:" block appended to a command's --help. */
export function examples(list: ReadonlyArray<readonly [command: string, what: string]>): string {
  const width = Math.max(...list.map(([c]) => c.length));
  return `\nExamples:\n${list.map(([c, w]) => `  $ ${c.padEnd(width)}  # ${w}`).join('\n')}\n`;
}
