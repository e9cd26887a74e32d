import { UsageError } from '../errors.js';
import type { Io } from './streams.js';

/**
 * Asks a yes/no question on the terminal (stderr), default no. `--yes` answers it; without a
 * terminal the command fails with exit 2 instead of hanging on a prompt nobody sees.
 */
export async function confirm(term: Pick<Io, 'stdin' | 'stderr' | 'stdinIsTTY' | 'stderrIsTTY'> & { yes: boolean }, question: string): Promise<boolean> {
  if (term.yes) return true;
  if (!term.stdinIsTTY || !term.stderrIsTTY) {
    throw new UsageError(`Confirmation needed: ${question}`, { hint: 'Run it again with --yes to confirm without a prompt.' });
  }
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: term.stdin, output: term.stderr, terminal: false });
  // End of input (Ctrl-D) closes the interface without answering the question: that is a "no".
  // Without this the pending question never settles and Node exits with code 13.
  const closed = new Promise<string>((resolve) => rl.once('close', () => resolve('')));
  try {
    const answer = await Promise.race([rl.question(`${question} [y/N] `), closed]);
    return /^(y|yes)$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
