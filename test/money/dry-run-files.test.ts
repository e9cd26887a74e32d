/**
 * A dry run changes nothing anywhere: not the `-o` target (a partial file a stopped run left), not the
 * resume or batch journals, not a lock, not an events cursor, not the config file. Each case snapshots
 * the working directory and the config directory (every file's content and mtime) before and after.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { snapshotTree } from '../helpers/tree-snapshot.js';

describe('a dry run writes no file', () => {
  it('enrich handle --input -o after a stopped run: the partial output, the store and the config dir are untouched', async () => {
    const sb = await startSandbox({ port: 0, seed: 5, rateLimit: 100_000, credits: 1000 });
    try {
      sb.state.ledger.balanceMilli = 5 * 30;
      const names = sb.state.creators
        .list('instagram')
        .slice(0, 12)
        .map((c) => c.profile.username);
      const dir = tempDir('creators-dry-files-');
      writeFileSync(join(dir, 'in.csv'), `handle\n${names.join('\n')}\n`);
      const configDir = tempConfigDir();
      const env = sandboxEnv(sb);
      const args = [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        'in.csv',
        '-o',
        'out.csv',
        '--concurrency',
        '1',
      ];
      const first = await runCli(args, { env, configDir, cwd: dir });
      expect(first.code, first.stderr).toBe(5);
      const before = { ...snapshotTree(dir), ...snapshotTree(configDir) };
      const dry = await runCli([...args, '--dry-run'], { env, configDir, cwd: dir });
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(/^Dry run: nothing was sent\./);
      expect(dry.stdout).toContain('5 more from the store at 0 credits');
      expect(dry.stderr).toContain('Dry run: out.csv exists and was left unchanged; the plan is on standard output.');
      expect({ ...snapshotTree(dir), ...snapshotTree(configDir) }).toEqual(before);
    } finally {
      await sb.close();
    }
  });

  describe('other commands with files at stake', () => {
    const sandbox = useSandbox({ seed: 7, rateLimit: 100_000 });
    const cases: Array<{
      name: string;
      argv: (handle: string) => string[];
      files?: Record<string, string>;
      first?: string[];
    }> = [
      {
        name: 'socials --input -o',
        argv: () => ['socials', '--platform', 'instagram', '--input', 'in.csv', '-o', 'out.csv'],
        files: { 'out.csv': 'handle,status\npaid,ok\n' },
      },
      {
        name: 'enrich email --input -o (json)',
        argv: () => ['enrich', 'email', '--input', 'emails.csv', '-o', 'out.json'],
        files: { 'out.json': '[{"paid":true}]\n' },
      },
      {
        name: 'search --all -o',
        argv: () => ['search', '--platform', 'instagram', '--all', '--max-results', '40', '-o', 'found.jsonl'],
        files: { 'found.jsonl': '{"paid":true}\n' },
      },
      {
        name: 'posts --all -o',
        argv: (h) => ['posts', h, '--platform', 'instagram', '--all', '--max-pages', '2', '-o', 'posts.csv'],
        files: { 'posts.csv': 'id\n1\n' },
      },
      {
        name: 'batch run',
        argv: () => ['batch', 'run', 'in.csv', '--mode', 'raw', '--platform', 'instagram', '-o', 'results.csv'],
        files: { 'results.csv': 'x\n' },
      },
      { name: 'batch upload', argv: () => ['batch', 'upload', 'in.csv', '--mode', 'raw', '--platform', 'instagram'] },
      {
        name: 'events tail with its cursor',
        argv: () => ['events', 'tail', '--once', '--cursor-file', 'cursor.json'],
        first: ['events', 'tail', '--once', '--cursor-file', 'cursor.json'],
      },
      {
        name: 'api -o',
        argv: () => ['api', 'discovery', '-f', 'platform=instagram', '-f', 'paging.limit=10', '-o', 'raw.json'],
        files: { 'raw.json': '{"paid":true}\n' },
      },
      { name: 'config set', argv: () => ['config', 'set', 'format', 'csv'] },
      { name: 'config unset', argv: () => ['config', 'unset', 'platform'] },
      { name: 'keys create', argv: () => ['keys', 'create', '--name', 'dry'] },
      { name: 'exclusions create', argv: () => ['exclusions', 'create', 'dry', '--platform', 'tiktok'] },
    ];
    it.each(cases)(
      '$name --dry-run: the working and config directories are as they were',
      async ({ argv, files, first }) => {
        const sb = sandbox.get();
        const handle = creatorHandles(sb, 1)[0] as string;
        const dir = tempDir('creators-dry-files-');
        writeFileSync(join(dir, 'in.csv'), `handle\n${creatorHandles(sb, 3).join('\n')}\n`);
        writeFileSync(join(dir, 'emails.csv'), 'email\nann@example.com\n');
        for (const [name, content] of Object.entries(files ?? {})) writeFileSync(join(dir, name), content);
        const configDir = tempConfigDir();
        const env = sandboxEnv(sb);
        expect((await runCli(['config', 'set', 'platform', 'instagram'], { env, configDir })).code).toBe(0);
        // A real run first where the dry run would meet its files (an events cursor).
        if (first) expect((await runCli(first, { env, configDir, cwd: dir })).code).toBe(0);
        const before = { ...snapshotTree(dir), ...snapshotTree(configDir) };
        const used = sb.state.ledger.usedMilli;
        const dry = await runCli([...argv(handle), '--dry-run'], { env, configDir, cwd: dir });
        expect(dry.code, dry.stderr).toBe(0);
        expect({ ...snapshotTree(dir), ...snapshotTree(configDir) }).toEqual(before);
        expect(sb.state.ledger.usedMilli).toBe(used);
      },
    );
  });
});
