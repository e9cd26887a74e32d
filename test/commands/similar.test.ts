import { describe, expect, it } from 'vitest';
import { detectBy } from '../../src/commands/similar.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

type Account = { user_id: string; similarity_score: number; profile: { username: string } };

const sb = useSandbox({ seed: 23 });
const env = () => sandboxEnv(sb.get());

describe('creators similar', () => {
  it('detects --by from the value', () => {
    expect(detectBy('https://www.instagram.com/nasa/')).toBe('url');
    expect(detectBy('youtube.com/@mkbhd')).toBe('url');
    expect(detectBy('123456789')).toBe('id');
    expect(detectBy('UCBJycsmduvYEL83R_U4JriQ')).toBe('id');
    expect(detectBy('@nasa')).toBe('username');
    expect(detectBy('nasa.official')).toBe('username');
  });

  it('sends filter_key/filter_value, omits empty filters, and prints similarity best first', async () => {
    const ref = (await runCli(['search', '--platform', 'instagram', '--limit', '1', '--json'], { env: env() })).json<
      Account[]
    >()[0]!;
    const dry = await runCli(
      [
        'similar',
        `https://www.instagram.com/${ref.profile.username}/`,
        '--platform',
        'instagram',
        '--dry-run',
        '--json',
      ],
      { env: env() },
    );
    expect(dry.json<{ body: unknown; worst_case_credits: number }>()).toMatchObject({
      body: {
        platform: 'instagram',
        filter_key: 'url',
        filter_value: `https://www.instagram.com/${ref.profile.username}/`,
        paging: { limit: 20, page: 0 },
      },
      worst_case_credits: 0.2,
    });
    expect(JSON.stringify(dry.json())).not.toContain('"filters"');
    const res = await runCli(['similar', ref.profile.username, '--platform', 'instagram', '--limit', '5', '--json'], {
      env: env(),
    });
    expect(res.code).toBe(0);
    const list = res.json<Account[]>();
    expect(list).toHaveLength(5);
    const scores = list.map((a) => a.similarity_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const byId = await runCli(['similar', ref.user_id, '--platform', 'instagram', '--limit', '5', '--json'], {
      env: env(),
    });
    expect(byId.json<Account[]>()).toEqual(list);
  });

  it('shows a similarity column in the table and the spend summary', async () => {
    const ref = (await runCli(['search', '--platform', 'youtube', '--limit', '1', '--json'], { env: env() })).json<
      Account[]
    >()[0]!;
    const res = await runCli(['similar', ref.profile.username, '--platform', 'youtube', '--limit', '2', '--no-color'], {
      env: env(),
      tty: true,
    });
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[1]).toMatch(/handle .* similarity │$/);
    expect(res.stderr).toMatch(
      /^Spent 0\.02 credits on 2 creators \(1 page\); [\d.]+ credits left\.\nShowing 2 of [\d,]+ matches \(page 1\)(; --page 2 or --all)?\n$/,
    );
  });

  it('--all with filters pages to --max-results, each creator once', async () => {
    const ref = (await runCli(['search', '--platform', 'tiktok', '--limit', '1', '--json'], { env: env() })).json<
      Account[]
    >()[0]!;
    const res = await runCli(
      [
        'similar',
        ref.profile.username,
        '--platform',
        'tiktok',
        '--min-followers',
        '1000',
        '--all',
        '--limit',
        '10',
        '--max-results',
        '35',
        '--json',
      ],
      { env: env() },
    );
    expect(res.code).toBe(0);
    const list = res.json<Account[]>();
    // 3 pages of 10 (the explicit --limit), then a request of 5 at offset 30: exactly 35.
    expect(list).toHaveLength(35);
    expect(new Set(list.map((a) => a.user_id)).size).toBe(35);
    expect(res.stderr).not.toMatch(/more than --max-results/);
  });

  it('an unknown reference creator is the server error (exit 1), nothing charged', async () => {
    const before = sb.get().state.ledger.usedMilli;
    const res = await runCli(['similar', 'nobody_here_zz', '--platform', 'twitch'], { env: env() });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: Request failed \(HTTP 404\): Creator not found\./);
    expect(sb.get().state.ledger.usedMilli).toBe(before);
  });
});
