import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

describe('creators completion', () => {
  it.each(['bash', 'zsh', 'fish'])('completion %s prints a script naming the commands', async (shell) => {
    const res = await runCli(['completion', shell]);
    expect(res.code).toBe(0);
    for (const word of ['credits', 'dict', 'config', '--format']) expect(res.stdout).toContain(word);
  });

  it('completion for an unknown shell is a usage error', async () => {
    const res = await runCli(['completion', 'tcsh']);
    expect(res.code).toBe(2);
  });

  it('a name of an object property is not a shell either (exit 2)', async () => {
    const res = await runCli(['completion', 'constructor']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe("error: Unsupported shell 'constructor'.\nUse bash, zsh or fish.\n");
  });

  it("bash knows the verbs of a group, and a verb's flags then the global ones (--version only at the root)", async () => {
    const res = await runCli(['completion', 'bash']);
    expect(res.stdout).toContain("    'auth') subs='status token' opts='--base-url ");
    expect(res.stdout).toMatch(
      /^ {4}'api'\) subs='' opts='--method -X --field -f --input --paginate --max-pages --base-url /m,
    );
    expect(res.stdout).not.toMatch(/^ {4}'api'\) .*--version/m);
  });

  it('-o writes the script to a file and nothing to stdout', async () => {
    const dir = tempDir('creators-completion-');
    const res = await runCli(['completion', 'zsh', '-o', join(dir, '_creators')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(readFileSync(join(dir, '_creators'), 'utf8')).toBe((await runCli(['completion', 'zsh'])).stdout);
  });
});
