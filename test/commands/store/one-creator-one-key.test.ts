import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchWorld } from '../../../src/sandbox/batch/jobs.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * One creator, one key, in every paid command: a creator written as a name, `@Name`, another case or its
 * profile URL is one purchase. The sandbox's ledger says what was charged.
 */
const sandbox = useSandbox({ seed: 41, credits: 100_000 });

function world() {
  const sb = sandbox.get();
  const configDir = tempConfigDir();
  const cwd = tempDir('creators-key-');
  const run = (argv: string[]) => runCli(argv, { env: sandboxEnv(sb), configDir, cwd });
  const charged = () => sb.state.ledger.charges.length;
  return { sb, cwd, run, charged };
}

const url = (handle: string) => `https://www.instagram.com/${handle.toUpperCase()}/`;

describe('one creator, one key', () => {
  it('similar <name> and similar <its URL> (or @Name) are one purchase', async () => {
    const w = world();
    const [ref] = creatorHandles(w.sb, 1, 2);
    const first = await w.run(['similar', ref!, '--platform', 'instagram', '--limit', '5', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const bought = w.charged();
    expect(bought).toBeGreaterThan(0);
    const names = first.json<Array<{ profile: { username: string } }>>().map((a) => a.profile.username);
    for (const spelled of [url(ref!), `@${ref!.toUpperCase()}`, `instagram.com/${ref}`]) {
      const again = await w.run(['similar', spelled, '--platform', 'instagram', '--limit', '5', '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(
        again.json<Array<{ profile: { username: string } }>>().map((a) => a.profile.username),
        spelled,
      ).toEqual(names);
      expect(w.charged(), spelled).toBe(bought);
    }
    // Another reference is another purchase.
    const [other] = creatorHandles(w.sb, 1, 7);
    expect((await w.run(['similar', other!, '--platform', 'instagram', '--limit', '5', '--json'])).code).toBe(0);
    expect(w.charged()).toBe(bought + 1);
  });

  it('search with the same exclusions spelled or ordered otherwise is one purchase', async () => {
    const w = world();
    const [a, b] = creatorHandles(w.sb, 2, 30);
    const search = (...handles: string[]) => {
      writeFileSync(join(w.cwd, 'ex.txt'), `${handles.join('\n')}\n`);
      return w.run(['search', '--platform', 'instagram', '--limit', '5', '--exclude-handles', 'ex.txt', '--json']);
    };
    const before = w.charged();
    expect((await search(a!, b!)).code).toBe(0);
    const bought = w.charged();
    expect(bought).toBeGreaterThan(before);
    expect((await search(url(b!), `@${a!}`)).code).toBe(0);
    expect(w.charged()).toBe(bought);
  });

  it('enrich handle, socials, posts and overlap: a name and its URL are one purchase', async () => {
    const w = world();
    const [a, b] = creatorHandles(w.sb, 2, 40);
    const runs: string[][][] = [
      [
        ['enrich', 'handle', a!, '--platform', 'instagram', '--mode', 'raw', '--json'],
        ['enrich', 'handle', url(a!), '--platform', 'instagram', '--mode', 'raw', '--json'],
      ],
      [
        ['socials', a!, '--platform', 'instagram', '--json'],
        ['socials', url(a!), '--platform', 'instagram', '--json'],
      ],
      [
        ['posts', a!, '--platform', 'instagram', '--json'],
        ['posts', url(a!), '--platform', 'instagram', '--json'],
      ],
      [
        ['overlap', a!, b!, '--platform', 'instagram', '--json'],
        ['overlap', url(b!), `@${a!}`, '--platform', 'instagram', '--json'],
      ],
    ];
    for (const [first, second] of runs) {
      const before = w.charged();
      const one = await w.run(first!);
      expect(one.code, one.stderr).toBe(0);
      const bought = w.charged();
      expect(bought, first!.join(' ')).toBeGreaterThan(before);
      const two = await w.run(second!);
      expect(two.code, two.stderr).toBe(0);
      expect(w.charged(), second!.join(' ')).toBe(bought);
    }
  });

  it('one run given a creator twice (name and URL) buys it once; a batch file holds it once', async () => {
    const w = world();
    const [a] = creatorHandles(w.sb, 1, 50);
    const before = w.charged();
    const res = await w.run([
      'enrich',
      'handle',
      a!,
      url(a!),
      `@${a!}`,
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--format',
      'jsonl',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(3);
    expect(w.charged() - before).toBe(1);

    writeFileSync(join(w.cwd, 'twice.csv'), `handle\n${a}\n${url(a!)}\n`);
    const up = await w.run(['batch', 'upload', 'twice.csv', '--mode', 'raw', '--platform', 'instagram']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).toContain('1 duplicate skipped');
    expect(batchWorld(w.sb.state).jobs.get(up.stdout.trim())?.values).toEqual([a]);
  });
});
