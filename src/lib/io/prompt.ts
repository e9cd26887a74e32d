import { UsageError } from '../errors.js';
import type { Io } from './streams.js';

/** Default no. Without a terminal, exit 2 rather than hang on a prompt nobody sees. */
export async function confirm(
  term: Pick<Io, 'stdin' | 'stderr' | 'stdinIsTTY' | 'stderrIsTTY'> & { yes: boolean },
  question: string,
): Promise<boolean> {
  if (term.yes) return true;
  if (!term.stdinIsTTY || !term.stderrIsTTY) {
    throw new UsageError(`Confirmation needed: ${question}`, {
      hint: 'Run it again with --yes to confirm without a prompt.',
    });
  }
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: term.stdin, output: term.stderr, terminal: false });
  // End of input (Ctrl-D) closes the interface unanswered: a "no" (else the question never settles: exit 13).
  const closed = new Promise<string>((resolve) => rl.once('close', () => resolve('')));
  try {
    const answer = await Promise.race([rl.question(`${question} [y/N] `), closed]);
    return /^(y|yes)$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
