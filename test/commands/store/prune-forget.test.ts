/**
 * `creators store prune|forget`: they delete what the store keeps (asking first unless --yes, exit 2
 * without a terminal), `--dry-run` counts and changes nothing, and what was forgotten or pruned is bought
 * again (and paid: the sandbox ledger moves) by the next purchase, while the spend log keeps what was paid.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { snapshotTree } from '../../helpers/tree-snapshot.js';

const sb = useSandbox();

const T0 = Date.parse('2026-11-22T10:00:00Z');
const DAY = 86_400_000;
const at = (ms: number) => () => ms;
const usedMilli = (): number => sb.get().state.ledger.usedMilli;

const ENRICH = ['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--mode', 'raw', '--json'];

async function stored(
  env: Record<string, string>,
  configDir: string,
): Promise<Array<{ kind: string; subject: string | null }>> {
  const res = await runCli(['store', 'list', '--json'], { env, configDir });
  expect(res.code, res.stderr).toBe(0);
  return res.json();
}

describe('creators store forget', () => {
  it('forgets a creator (handle normalised), after asking; the next enrichment pays again', async () => {
    const env = sandboxEnv(sb.get());
    const configDir = tempConfigDir();
    const before = usedMilli();
    expect((await runCli(ENRICH, { env, configDir })).code).toBe(0);
    expect(usedMilli() - before).toBe(30);
    // Bought once: the second run answers from the store.
    const again = await runCli(ENRICH, { env, configDir });
    expect(again.code).toBe(0);
    expect(usedMilli() - before).toBe(30);

    // Without a terminal and without --yes: refused, nothing deleted.
    const refused = await runCli(['store', 'forget', 'instagram:@Noah_Paws'], { env, configDir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Confirmation needed/);
    expect(await stored(env, configDir)).toHaveLength(1);
    // Said no at the terminal: nothing deleted.
    const no = await runCli(['store', 'forget', 'instagram:noah_paws'], {
      env,
      configDir,
      tty: true,
      stdin: 'n\n',
      stdinTTY: true,
    });
    expect(no.code).toBe(0);
    expect(no.stderr).toContain(
      'Forget instagram:noah_paws: delete 1 creator record? Buying them again costs credits.',
    );
    expect(no.stderr).toContain('Nothing was deleted.');
    expect(await stored(env, configDir)).toHaveLength(1);

    const file = join(configDir, 'store', 'default.db');
    const tree = JSON.stringify(snapshotTree(configDir));
    const dry = await runCli(
      ['store', 'forget', 'instagram:https://www.instagram.com/Noah_Paws/', '--dry-run', '--json'],
      { env, configDir },
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toEqual({
      dry_run: true,
      store: file,
      platform: 'instagram',
      handle: 'noah_paws',
      would_delete: { creator: 1, page: 0 },
    });
    const dryText = await runCli(['store', 'forget', 'instagram:noah_paws', '--dry-run'], {
      env,
      configDir,
      tty: true,
    });
    expect(dryText.stdout).toBe(
      `Dry run: nothing was changed.\ninstagram:noah_paws: 1 creator record would be deleted from ${file}.\n`,
    );
    expect(JSON.stringify(snapshotTree(configDir))).toBe(tree);

    const yes = await runCli(['store', 'forget', 'instagram:@Noah_Paws', '--yes'], { env, configDir });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).toContain(
      'Forgot instagram:noah_paws: deleted 1 creator record; the next purchase buys it fresh.',
    );
    expect(await stored(env, configDir)).toEqual([]);

    const fresh = await runCli(ENRICH, { env, configDir });
    expect(fresh.code).toBe(0);
    expect(usedMilli() - before).toBe(60);
    // The spend log kept both charges.
    const spend = await runCli(['spend', '--json'], { env, configDir });
    expect(spend.json<Array<{ credits: number }>>().at(-1)?.credits).toBe(0.06);

    const nothing = await runCli(['store', 'forget', 'youtube:noah_paws', '--yes'], { env, configDir });
    expect(nothing.code).toBe(0);
    expect(nothing.stderr).toContain('Nothing to forget: the store keeps nothing about youtube:noah_paws.');
    expect(await stored(env, configDir)).toHaveLength(1);
  });

  it('forgets the pages that listed the creator too, so it is not answered from them', async () => {
    const env = sandboxEnv(sb.get());
    const configDir = tempConfigDir();
    const search = await runCli(['search', '--platform', 'instagram', '--limit', '5', '--json'], { env, configDir });
    expect(search.code).toBe(0);
    const listed = search.json<Array<{ profile: { username: string } }>>()[2]!.profile.username;
    expect(
      (await runCli(['enrich', 'handle', listed, '--platform', 'instagram', '--mode', 'raw'], { env, configDir })).code,
    ).toBe(0);
    expect(await stored(env, configDir)).toHaveLength(2);

    const dry = await runCli(['store', 'forget', `instagram:${listed}`, '--dry-run', '--format', 'jsonl'], {
      env,
      configDir,
    });
    expect(JSON.parse(dry.stdout)).toMatchObject({ would_delete: { creator: 1, page: 1 } });
    const yes = await runCli(['store', 'forget', `instagram:${listed}`], {
      env,
      configDir,
      tty: true,
      stdin: 'y\n',
      stdinTTY: true,
    });
    expect(yes.code).toBe(0);
    expect(yes.stderr.split('\n').join(' ')).toContain(
      `Forgot instagram:${listed.toLowerCase()}: deleted 1 creator record and 1 page (its posts, or Discovery pages listing it)`,
    );
    expect(await stored(env, configDir)).toEqual([]);
  });

  it('refuses what is not <platform>:<handle>, and creates no store when there is none', async () => {
    const env = sandboxEnv(sb.get());
    const configDir = tempConfigDir();
    for (const [arg, message] of [
      ['noah_paws', /expected <platform>:<handle>/],
      ['instagram:', /expected <platform>:<handle>/],
      ['myspace:noah', /Unknown platform 'myspace'/],
    ] as const) {
      const res = await runCli(['store', 'forget', arg, '--yes'], { env, configDir });
      expect(res.code, arg).toBe(2);
      expect(res.stderr).toMatch(message);
    }
    const none = await runCli(['store', 'forget', 'instagram:noah_paws', '--yes'], { env, configDir });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('Nothing to forget');
    expect(existsSync(join(configDir, 'store'))).toBe(false);
  });
});

describe('creators store prune', () => {
  it('deletes answers bought longer ago than --older-than (by the injected clock), keeps the spend log', async () => {
    const env = sandboxEnv(sb.get());
    const configDir = tempConfigDir();
    const file = join(configDir, 'store', 'default.db');
    const before = usedMilli();
    expect((await runCli(ENRICH, { env, configDir, now: at(T0) })).code).toBe(0);
    expect(
      (await runCli(['search', '--platform', 'instagram', '--limit', '5'], { env, configDir, now: at(T0 + 50 * DAY) }))
        .code,
    ).toBe(0);
    expect(usedMilli() - before).toBe(80);

    // 80 days on, nothing is older than 90 days.
    const young = await runCli(['store', 'prune', '--older-than', '90d', '--yes'], {
      env,
      configDir,
      now: at(T0 + 80 * DAY),
    });
    expect(young.code).toBe(0);
    expect(young.stderr).toContain('Nothing to prune: no stored answer was bought before');
    expect(await stored(env, configDir)).toHaveLength(2);

    // 100 days on, the enrichment is; the dry run counts it and changes nothing.
    const later = at(T0 + 100 * DAY);
    const tree = JSON.stringify(snapshotTree(configDir));
    const dry = await runCli(['store', 'prune', '--older-than', '90d', '--dry-run', '--json'], {
      env,
      configDir,
      now: later,
    });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toEqual({
      dry_run: true,
      store: file,
      older_than: '90d',
      before: new Date(T0 + 10 * DAY).toISOString(),
      would_delete: 1,
    });
    const dryText = await runCli(['store', 'prune', '--older-than', '90d', '--dry-run'], {
      env,
      configDir,
      now: later,
      tty: true,
    });
    expect(dryText.stdout).toMatch(
      /^Dry run: nothing was changed\.\n1 stored answer bought before .* would be deleted from .*default\.db\.\n$/,
    );
    expect(JSON.stringify(snapshotTree(configDir))).toBe(tree);

    const refused = await runCli(['store', 'prune', '--older-than', '90d'], { env, configDir, now: later });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Confirmation needed/);
    expect(await stored(env, configDir)).toHaveLength(2);

    const pruned = await runCli(['store', 'prune', '--older-than', '90d'], {
      env,
      configDir,
      now: later,
      tty: true,
      stdin: 'y\n',
      stdinTTY: true,
    });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toMatch(/Delete 1 stored answer bought before .*\? Buying them again costs credits\./);
    expect(pruned.stderr.split('\n').join(' ')).toMatch(
      /Deleted 1 stored answer bought before .* from .*default\.db; the spend log is kept\./,
    );
    expect((await stored(env, configDir)).map((r) => r.kind)).toEqual(['page']);

    // The spend log still holds what was paid for the pruned answer.
    const spend = await runCli(['spend', '--since', '200d', '--json'], { env, configDir, now: later });
    expect(spend.json<Array<{ credits: number }>>().at(-1)?.credits).toBe(0.08);
    // And the enrichment is bought (and paid) again.
    expect((await runCli(ENRICH, { env, configDir, now: later })).code).toBe(0);
    expect(usedMilli() - before).toBe(110);

    const all = await runCli(['store', 'prune', '--older-than', '0', '--yes'], {
      env,
      configDir,
      now: at(T0 + 101 * DAY),
    });
    expect(all.stderr).toContain('Deleted 2 stored answers');
    expect(await stored(env, configDir)).toEqual([]);
  });

  it('needs --older-than, and creates no store when there is none', async () => {
    const env = sandboxEnv(sb.get());
    const configDir = tempConfigDir();
    const missing = await runCli(['store', 'prune', '--yes'], { env, configDir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--older-than is required.');
    const bad = await runCli(['store', 'prune', '--older-than', 'old', '--yes'], { env, configDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Invalid --older-than 'old'");
    const none = await runCli(['store', 'prune', '--older-than', '90d', '--yes'], { env, configDir });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('Nothing to prune: there is no store yet');
    const dry = await runCli(['store', 'prune', '--older-than', '90d', '--dry-run', '--json'], { env, configDir });
    expect(dry.json()).toMatchObject({ dry_run: true, would_delete: 0 });
    expect(existsSync(join(configDir, 'store'))).toBe(false);
  });
});
