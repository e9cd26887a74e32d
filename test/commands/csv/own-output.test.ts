import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * The CLI's own CSV output given back as input: `search --format csv` (profile.username), `events list
 * --format csv` (creator.platform_id), `exclusions entries` (handle) feed `enrich handle --input` without
 * the "No handle column recognised" warning, and the right column is read.
 */
const sandbox = useSandbox({ seed: 12 });

describe("the CLI's own output is its own input", () => {
  it('search CSV (whole records, and --fields profile.username) feeds enrich handle with its handles', async () => {
    const env = sandboxEnv(sandbox.get());
    const configDir = tempConfigDir();
    const cwd = tempDir('creators-own-');
    for (const fields of [[], ['--fields', 'profile.username']]) {
      const found = await runCli(['search', '--platform', 'instagram', '--limit', '3', '--format', 'csv', ...fields], {
        env,
        configDir,
      });
      expect(found.code, found.stderr).toBe(0);
      writeFileSync(join(cwd, 'found.csv'), found.stdout);
      const handles = (
        await runCli(['search', '--platform', 'instagram', '--limit', '3', '--json'], { env, configDir })
      )
        .json<Array<{ profile: { username: string } }>>()
        .map((c) => c.profile.username);
      const plan = await runCli(
        ['enrich', 'handle', '--input', 'found.csv', '--platform', 'instagram', '--mode', 'raw', '--dry-run', '--json'],
        { env, configDir, cwd },
      );
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stderr).not.toContain('No handle column recognised');
      expect(JSON.stringify(plan.json())).toContain(handles[0]!);
    }
  });

  it('events CSV feeds enrich handle with the creators of the events', async () => {
    const sb = sandbox.get();
    const env = sandboxEnv(sb);
    const configDir = tempConfigDir();
    const cwd = tempDir('creators-own-');
    const handle = sb.state.creators.list('instagram')[0]!.profile.username;
    const made = await runCli(
      ['listening', 'subscriptions', 'create', '--name', 'own', '--platform', 'instagram', handle, '--json'],
      { env, configDir },
    );
    expect(made.code, made.stderr).toBe(0);
    await fetch(`${sb.url}/_sandbox/listening/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ minutes: 600 }),
    });
    const events = await runCli(['events', 'list', '--format', 'csv'], { env, configDir });
    expect(events.code, events.stderr).toBe(0);
    expect(events.stdout.split('\n')[0]).toContain('creator.platform_id');
    writeFileSync(join(cwd, 'events.csv'), events.stdout);
    const plan = await runCli(
      ['enrich', 'handle', '--input', 'events.csv', '--platform', 'instagram', '--mode', 'raw', '--dry-run', '--json'],
      { env, configDir, cwd },
    );
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).not.toContain('No handle column recognised');
    expect(JSON.stringify(plan.json())).toContain(handle);
  });
});
