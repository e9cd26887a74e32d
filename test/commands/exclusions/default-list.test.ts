import { describe, expect, it } from 'vitest';
import { exclusionLists } from '../../../src/sandbox/discovery/exclusion-store.js';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';

type Plan = {
  dry_run: boolean;
  method: string;
  url: string;
  body: unknown;
  worst_case_credits: number;
  cost_basis: string | null;
};

const sb = useSandbox({ seed: 25 });
const env = () => sandboxEnv(sb.get());
/** The platforms whose default list exists on the sandbox. */
const defaults = () =>
  [...exclusionLists(sb.get().state).values()]
    .filter((l) => l.is_default)
    .map((l) => l.platform)
    .sort();

/**
 * The service creates a platform's default list on the first read of `default:<platform>`: a dry
 * run must print the plan of that read and create nothing (the bug: `exclusions get default:x
 * --dry-run` used to send the GET).
 */
describe('--dry-run never creates the default exclusion list', () => {
  it('exclusions get default:<platform> --dry-run prints the GET and creates nothing', async () => {
    const res = await runCli(['exclusions', 'get', 'default:instagram', '--dry-run', '--json'], { env: env() });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.json<Plan>()).toEqual({
      dry_run: true,
      method: 'GET',
      url: `${sb.get().url}/public/v1/discovery/exclusion-lists/default/instagram/`,
      body: null,
      worst_case_credits: 0,
      cost_basis: 'free; creates the default instagram list if it does not exist yet',
    });
    expect(defaults()).toEqual([]);
  });

  it('exclusions entries default:<platform> --dry-run (with and without --all) creates nothing', async () => {
    for (const extra of [[], ['--all']]) {
      const res = await runCli(
        ['exclusions', 'entries', 'default:youtube', '--limit', '5', ...extra, '--dry-run', '--json'],
        { env: env() },
      );
      expect(res.code).toBe(0);
      expect(res.json<Plan>()).toMatchObject({
        method: 'GET',
        url: expect.stringMatching(/\/exclusion-lists\/default\/youtube\/entries\/\?offset=0&limit=5$/),
      });
    }
    expect(defaults()).toEqual([]);
  });

  it('exclusions add|remove default:<platform> --dry-run shows the first request and creates nothing', async () => {
    const add = await runCli(['exclusions', 'add', 'default:tiktok', 'x', '--dry-run', '--json'], { env: env() });
    expect(add.code).toBe(0);
    expect(add.json<Plan>()).toMatchObject({
      method: 'POST',
      body: { handles: ['x'] },
      cost_basis: '1 handle in 1 request, free',
    });
    const remove = await runCli(['exclusions', 'remove', 'default:twitch', 'x', '--dry-run', '--json'], { env: env() });
    expect(remove.json<Plan>()).toMatchObject({ method: 'DELETE', body: { handles: ['x'] } });
    expect(defaults()).toEqual([]);
  });

  it('search|similar --exclude-default-list --dry-run creates nothing and charges nothing', async () => {
    const used = sb.get().state.ledger.usedMilli;
    const res = await runCli(['search', '--platform', 'twitter', '--exclude-default-list', '--dry-run', '--json'], {
      env: env(),
    });
    expect(res.code).toBe(0);
    expect(res.json<{ body: { filters: unknown } }>().body.filters).toEqual({ exclude_default_list: true });
    const sim = await runCli(
      [
        'similar',
        'nasa',
        '--platform',
        'twitter',
        '--exclude-default-list',
        '--exclude-all-lists',
        '--dry-run',
        '--json',
      ],
      { env: env() },
    );
    expect(sim.code).toBe(0);
    expect(defaults()).toEqual([]);
    expect(sb.get().state.ledger.usedMilli).toBe(used);
  });

  it('without --dry-run, get default:<platform> still creates it on first access', async () => {
    const res = await runCli(['exclusions', 'get', 'default:onlyfans', '--json'], { env: env() });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ platform: 'onlyfans', is_default: true });
    expect(defaults()).toEqual(['onlyfans']);
  });
});

describe('--dry-run on the other exclusion writes', () => {
  it.each([
    [
      ['exclusions', 'create', 'Dry', '--platform', 'instagram'],
      'POST',
      /\/exclusion-lists\/$/,
      { name: 'Dry', platform: 'instagram' },
    ],
    [['exclusions', 'rename', '42', 'New'], 'PATCH', /\/exclusion-lists\/42\/$/, { name: 'New' }],
    [['exclusions', 'delete', '42'], 'DELETE', /\/exclusion-lists\/42\/$/, null],
  ])('%j prints the plan and sends nothing', async (argv, method, url, body) => {
    const before = exclusionLists(sb.get().state).size;
    const res = await runCli([...(argv as string[]), '--dry-run', '--json'], { env: env() });
    expect(res.code).toBe(0);
    expect(res.json<Plan>()).toMatchObject({
      dry_run: true,
      method,
      url: expect.stringMatching(url as RegExp),
      body,
      worst_case_credits: 0,
    });
    expect(exclusionLists(sb.get().state).size).toBe(before);
  });
});
