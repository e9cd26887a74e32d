/**
 * Every command, run with `--dry-run` against the sandbox, changes nothing anywhere: the sandbox sees
 * no state-changing request (any non-GET, or a GET of a default exclusion list, which creates it), its
 * ledger does not move, and no local file or setting is written. A plain read (`dict`, `keys list`,
 * `events list`...) sends no request at all: it prints its plan. The walk covers every leaf of the
 * command tree: a command added without a sample here fails the first test.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/program.js';
import { runCli } from './helpers/run-cli.js';
import { sandboxEnv, useSandbox } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp.js';
import { snapshotTree } from './helpers/tree-snapshot.js';

/** Requests the sandbox answered (its own log: `METHOD /path/ status time`). */
const seen: string[] = [];
const sandbox = useSandbox({ log: (line) => seen.push(line) });

/** Every leaf command path of the tree. */
function leafPaths(): string[] {
  const out: string[] = [];
  const walk = (cmd: Command, path: string[]): void => {
    if (cmd.commands.length === 0 && path.length > 0) out.push(path.join(' '));
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(buildProgram({ io: {} as never, env: {}, cwd: '/', now: () => 0, sleep: async () => {} }), []);
  return out.sort();
}

interface Ids {
  list: string;
  subscription: string;
  campaign: string;
  batch: string;
  key: string;
  event: string;
  handle: string;
  csv: string;
  emails: string;
}

/** A representative command line per leaf (without `--dry-run`), from the ids made in set-up. */
function samples(ids: Ids): Record<string, string[]> {
  return {
    credits: ['credits'],
    spend: ['spend', '--by', 'command'],
    'auth status': ['auth', 'status'],
    'auth token': ['auth', 'token'],
    login: ['login', '--no-browser'],
    logout: ['logout'],
    'keys list': ['keys', 'list'],
    'keys create': ['keys', 'create', '--name', 'walk'],
    'keys update': ['keys', 'update', ids.key, '--name', 'renamed', '--inactive'],
    'keys delete': ['keys', 'delete', ids.key, '--yes'],
    'apps list': ['apps', 'list'],
    'apps revoke': ['apps', 'revoke', '1', '--yes'],
    search: [
      'search',
      '--platform',
      'instagram',
      '--all',
      '--max-results',
      '120',
      '--exclude-list',
      ids.list,
      '--exclude-default-list',
    ],
    similar: ['similar', ids.handle, '--platform', 'instagram', '--limit', '10'],
    dict: ['dict', 'languages', '--limit', '3'],
    'exclusions list': ['exclusions', 'list'],
    'exclusions create': ['exclusions', 'create', 'walk-2', '--platform', 'tiktok'],
    'exclusions get': ['exclusions', 'get', 'default:youtube'],
    'exclusions rename': ['exclusions', 'rename', ids.list, 'renamed'],
    'exclusions delete': ['exclusions', 'delete', ids.list, '--yes'],
    'exclusions entries': ['exclusions', 'entries', 'default:twitch', '--all'],
    'exclusions add': ['exclusions', 'add', 'default:tiktok', 'someone', 'someone_else'],
    'exclusions remove': ['exclusions', 'remove', ids.list, 'someone'],
    'enrich handle': ['enrich', 'handle', ids.handle, '--platform', 'instagram', '--mode', 'full'],
    'enrich email': ['enrich', 'email', '--input', ids.emails],
    post: ['post', 'https://www.instagram.com/p/DAbCdEfGhIj/', '--kind', 'comments', '--all', '--max-pages', '3'],
    posts: ['posts', ids.handle, '--platform', 'instagram', '--all', '--max-pages', '2'],
    socials: ['socials', ids.handle, 'someone_else', '--platform', 'instagram'],
    overlap: ['overlap', ids.handle, 'someone_else', '--platform', 'instagram'],
    'batch upload': ['batch', 'upload', ids.csv, '--mode', 'raw', '--platform', 'instagram'],
    'batch status': ['batch', 'status', ids.batch],
    'batch poll': ['batch', 'poll', ids.batch, '--interval', '1', '--max-wait', '1'],
    'batch download': ['batch', 'download', ids.batch],
    'batch resume': ['batch', 'resume', ids.batch],
    'batch run': ['batch', 'run', ids.csv, '--mode', 'raw', '--platform', 'instagram'],
    'listening subscriptions list': ['listening', 'subscriptions', 'list'],
    'listening subscriptions get': ['listening', 'subscriptions', 'get', ids.subscription],
    'listening subscriptions create': [
      'listening',
      'subscriptions',
      'create',
      '--name',
      'walk',
      '--platform',
      'instagram',
      ids.handle,
    ],
    'listening subscriptions update': [
      'listening',
      'subscriptions',
      'update',
      ids.subscription,
      '--name',
      'renamed',
      '--pause',
    ],
    'listening subscriptions delete': ['listening', 'subscriptions', 'delete', ids.subscription, '--yes'],
    'listening subscriptions creators': ['listening', 'subscriptions', 'creators', ids.subscription],
    'listening subscriptions add-creators': [
      'listening',
      'subscriptions',
      'add-creators',
      ids.subscription,
      '--platform',
      'instagram',
      'another_one',
    ],
    'listening subscriptions details': ['listening', 'subscriptions', 'details', ids.subscription],
    'listening subscriptions export': ['listening', 'subscriptions', 'export', ids.subscription],
    'listening campaigns list': ['listening', 'campaigns', 'list'],
    'listening campaigns get': ['listening', 'campaigns', 'get', ids.campaign],
    'listening campaigns create': [
      'listening',
      'campaigns',
      'create',
      '--name',
      'walk',
      '--days',
      '3',
      '--platform',
      'tiktok',
      ids.handle,
    ],
    'listening campaigns update': ['listening', 'campaigns', 'update', ids.campaign, '--days', '9'],
    'listening campaigns archive': ['listening', 'campaigns', 'archive', ids.campaign, '--yes'],
    'listening campaigns creators': ['listening', 'campaigns', 'creators', ids.campaign],
    'listening campaigns add-creators': [
      'listening',
      'campaigns',
      'add-creators',
      ids.campaign,
      '--platform',
      'tiktok',
      'another_one',
    ],
    'listening campaigns remove-creators': [
      'listening',
      'campaigns',
      'remove-creators',
      ids.campaign,
      '--platform',
      'tiktok',
      ids.handle,
      '--yes',
    ],
    'listening campaigns overview': ['listening', 'campaigns', 'overview', ids.campaign],
    'listening campaigns content': ['listening', 'campaigns', 'content', ids.campaign],
    'listening usage': ['listening', 'usage'],
    'events list': ['events', 'list', '--all'],
    'events get': ['events', 'get', ids.event],
    'events tail': ['events', 'tail', '--once', '--cursor-file', 'cursor.json'],
    'config get': ['config', 'get', 'platform'],
    'config set': ['config', 'set', 'format', 'csv'],
    'config unset': ['config', 'unset', 'platform'],
    'config list': ['config', 'list'],
    'config path': ['config', 'path'],
    'store path': ['store', 'path'],
    'store stats': ['store', 'stats'],
    'store list': ['store', 'list', '--kind', 'page'],
    'store export': ['store', 'export'],
    'store prune': ['store', 'prune', '--older-than', '0', '--yes'],
    'store forget': ['store', 'forget', `instagram:${ids.handle}`, '--yes'],
    'store migrate': ['store', 'migrate'],
    'store push': ['store', 'push'],
    'store doctor': ['store', 'doctor', '--all', '--yes'],
    api: ['api', 'discovery', '-f', 'platform=instagram', '-f', 'paging.limit=10'],
    sandbox: ['sandbox', '--port', '0'],
    mcp: ['mcp', '--budget', '20'],
    completion: ['completion', 'bash'],
    help: ['help', 'exit-codes'],
  };
}

/**
 * Samples whose dry run fails as their real run would here, and why: the walk's profile has a store file,
 * and `store push` copies into a team store only (its test against PostgreSQL: test/e2e/team-store.test.ts).
 */
const EXPECTED_EXIT: Record<string, number> = { 'store push': 2 };

/**
 * The free reads a dry run still makes, per command: those its real run makes first to check or price
 * its input (cli.md, `--dry-run`). Every other command sends no request at all.
 */
const INPUT_CHECKS: Record<string, RegExp[]> = {
  search: [/^GET \/public\/v1\/discovery\/exclusion-lists\/$/],
  'listening campaigns update': [/^GET \/public\/v1\/social\/listening\/campaign\/\d+\/$/],
  'listening campaigns add-creators': [/^GET \/public\/v1\/social\/listening\/campaign\/\d+\/$/],
};

/** Sandbox API call for set-up (not the code under test). */
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const sb = sandbox.get();
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json();
}

describe('--dry-run changes nothing anywhere, for every command', () => {
  let ids: Ids;
  let cwd: string;
  let configDir: string;

  beforeAll(async () => {
    cwd = tempDir('creators-walk-');
    configDir = tempDir('creators-walk-cfg-');
    // A profile with settings, so a dry run that wrote to it would be seen.
    const env = sandboxEnv(sandbox.get());
    expect((await runCli(['config', 'set', 'platform', 'instagram'], { env, configDir })).code).toBe(0);
    const found = await runCli(['search', '--platform', 'instagram', '--limit', '2', '--json'], { env, configDir });
    const handle = (found.json<Array<{ profile: { username: string } }>>()[0] as { profile: { username: string } })
      .profile.username;
    const list = await api('POST', '/public/v1/discovery/exclusion-lists/', { name: 'walk', platform: 'instagram' });
    await api('POST', `/public/v1/discovery/exclusion-lists/${list.id}/entries/`, { handles: ['someone'] });
    const sub = await api('POST', '/public/v1/social/listening/subscription/', {
      name: 'walk',
      creators: [{ platform: 'instagram', platform_id: handle }],
    });
    const campaign = await api('POST', '/public/v1/social/listening/campaign/', {
      name: 'walk',
      days: 3,
      creators: [{ platform: 'tiktok', platform_id: handle }],
    });
    const key = await api('POST', '/public/v1/accounts/tokens/', { name: 'walk' });
    await api('POST', '/_sandbox/listening/advance', { minutes: 180 });
    const events = await api('GET', '/public/v1/social/listening/events/');
    const eventList = Array.isArray(events) ? events : (events.results ?? events.data ?? []);
    const csv = join(cwd, 'handles.csv');
    writeFileSync(csv, `handle\n${handle}\nnobody_here\n`);
    const emails = join(cwd, 'emails.csv');
    writeFileSync(emails, 'email\nann@example.com\nbob@example.com\n');
    const uploaded = await runCli(['batch', 'upload', csv, '--mode', 'raw', '--platform', 'instagram', '--json'], {
      env,
      configDir,
      cwd,
    });
    expect(uploaded.code, uploaded.stderr).toBe(0);
    const batch = uploaded.json<{ batch_id: string }>().batch_id;
    await api('POST', '/_sandbox/batch', { advanceSeconds: 3600 });
    // The sandbox settles a job's charges when it is next looked at: settle them before the walk.
    await api('GET', `/public/v1/enrichment/batch/${batch}/status/`);
    ids = {
      list: String(list.id),
      subscription: String(sub.id ?? sub.subscription_id),
      campaign: String(campaign.id ?? campaign.campaign_id),
      batch,
      key: String(key.id),
      event: String(eventList[0]?.id ?? eventList[0]?.event_id ?? '1'),
      handle,
      csv: 'handles.csv',
      emails: 'emails.csv',
    };
  });

  it('has a sample for every command of the tree', () => {
    expect(Object.keys(samples({} as Ids)).sort()).toEqual(leafPaths());
  });

  it('sends nothing that changes state, moves no credit and writes no file or setting', async () => {
    const env = sandboxEnv(sandbox.get());
    const problems: string[] = [];
    for (const [name, argv] of Object.entries(samples(ids))) {
      const ledgerBefore = await api('GET', '/_sandbox/ledger');
      const filesBefore = snapshotTree(cwd);
      const configBefore = snapshotTree(configDir);
      seen.length = 0;
      const controller = new AbortController();
      // A dry run that waits for something (a server, a job) is a failure of its own, not a hung suite.
      const timer = setTimeout(() => controller.abort(), 10_000);
      const res = await runCli([...argv, '--dry-run'], { env, configDir, cwd, signal: controller.signal });
      clearTimeout(timer);
      if (controller.signal.aborted) problems.push(`${name}: still running after 10 s`);
      const changing = seen
        .filter((r) => !/^(GET|HEAD) /.test(r) || /\/exclusion-lists\/default\//.test(r))
        .filter((r) => !r.includes(' /_sandbox/'));
      const ledgerAfter = await api('GET', '/_sandbox/ledger');
      if (res.code !== (EXPECTED_EXIT[name] ?? 0)) problems.push(`${name}: exit ${res.code}: ${res.stderr.trim()}`);
      if (changing.length > 0) problems.push(`${name}: sent ${changing.join(', ')}`);
      // A plain read sends nothing at all: its plan stands for it. Only the free reads a real run makes
      // first to check or price its input are sent (and the plan names them).
      const reads = seen.filter((r) => !r.includes(' /_sandbox/')).map((r) => r.split(' ').slice(0, 2).join(' '));
      const allowed = INPUT_CHECKS[name] ?? [];
      const unexpected = reads.filter((r) => !allowed.some((re) => re.test(r)));
      if (unexpected.length > 0) problems.push(`${name}: read ${unexpected.join(', ')}`);
      if (reads.length > 0 && !/input|check/i.test(res.stdout))
        problems.push(`${name}: its plan does not name the reads it sent`);
      if (ledgerAfter.used_milli !== ledgerBefore.used_milli) problems.push(`${name}: the ledger moved`);
      // Every file's content and mtime, recursively: nothing created, replaced, truncated or touched.
      if (JSON.stringify(snapshotTree(cwd)) !== JSON.stringify(filesBefore))
        problems.push(`${name}: wrote a file in the working directory`);
      if (JSON.stringify(snapshotTree(configDir)) !== JSON.stringify(configBefore))
        problems.push(`${name}: wrote in the config directory (profile, journal, lock)`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('gives the plan to -o when the path is free, as the contract says', async () => {
    const env = sandboxEnv(sandbox.get());
    const res = await runCli(['credits', '--dry-run', '-o', 'fresh-plan.json'], { env, configDir, cwd });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(JSON.parse(readFileSync(join(cwd, 'fresh-plan.json'), 'utf8'))).toMatchObject({
      dry_run: true,
      method: 'GET',
      worst_case_credits: 0,
    });
  });

  it('leaves an existing -o file alone (it may hold paid records) and prints the plan on stdout in its format', async () => {
    const env = sandboxEnv(sandbox.get());
    writeFileSync(join(cwd, 'plan.json'), '[{"paid":true}]\n');
    const before = snapshotTree(cwd);
    const res = await runCli(['credits', '--dry-run', '-o', 'plan.json'], { env, configDir, cwd });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ dry_run: true, method: 'GET', worst_case_credits: 0 });
    expect(res.stderr).toContain('Dry run: plan.json exists and was left unchanged; the plan is on standard output.');
    expect(snapshotTree(cwd)).toEqual(before);
  });
});
