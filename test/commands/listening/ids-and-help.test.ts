import { describe, expect, it } from 'vitest';
import { FORWARD_ATTEMPTS } from '../../../src/lib/events/forward.js';
import { positiveId } from '../../../src/lib/ids.js';
import { mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';

/**
 * Checks made before anything is sent. The MockAgent has no intercepts and refuses real
 * connections, so any request would fail with exit 1: exit 2 proves nothing left the process.
 */
describe('listening and events: ids and bounds checked locally', () => {
  const idCases: [string[], RegExp][] = [
    [['listening', 'subscriptions', 'get', 'abc'], /Invalid subscription id 'abc': expected a positive integer\./],
    [['listening', 'subscriptions', 'creators', '0'], /Invalid subscription id '0'/],
    [['listening', 'subscriptions', 'details', '1.5'], /Invalid subscription id '1\.5'/],
    [['listening', 'subscriptions', 'export', '-3'], /Invalid subscription id '-3'/],
    [['listening', 'subscriptions', 'update', 'x1', '--name', 'n'], /Invalid subscription id 'x1'/],
    [['listening', 'subscriptions', 'delete', 'abc', '--yes'], /Invalid subscription id 'abc'/],
    [['listening', 'subscriptions', 'add-creators', 'abc', 'instagram:nasa'], /Invalid subscription id 'abc'/],
    [['listening', 'campaigns', 'get', 'abc'], /Invalid campaign id 'abc': expected a positive integer\./],
    [['listening', 'campaigns', 'update', '007', '--days', '3'], /Invalid campaign id '007'/],
    [['listening', 'campaigns', 'archive', 'abc', '--yes'], /Invalid campaign id 'abc'/],
    [['listening', 'campaigns', 'add-creators', 'abc', 'instagram:nasa'], /Invalid campaign id 'abc'/],
    [['listening', 'campaigns', 'remove-creators', '2x', 'instagram:nasa', '--yes'], /Invalid campaign id '2x'/],
    [['listening', 'campaigns', 'overview', 'abc'], /Invalid campaign id 'abc'/],
    [['listening', 'campaigns', 'content', 'abc'], /Invalid campaign id 'abc'/],
    [['listening', 'campaigns', 'creators', 'abc'], /Invalid campaign id 'abc'/],
    [['events', 'get', 'abc'], /Invalid event id 'abc': expected a positive integer\./],
    [['events', 'get', '0'], /Invalid event id '0'/],
    [['events', 'list', '--subscription', 'abc'], /Invalid --subscription 'abc': expected a positive integer\./],
    [['events', 'list', '--subscription', '0'], /Invalid --subscription '0'/],
    [['events', 'tail', '--once', '--subscription', 'abc'], /Invalid --subscription 'abc'/],
    [
      ['listening', 'campaigns', 'add-creators', '2'],
      /^error: Name at least one creator: as arguments, or with --file <file\|->\.\n$/,
    ],
    [
      ['listening', 'subscriptions', 'add-creators', '2', '--file', '-'],
      /^error: Name at least one creator: as arguments, or with --file <file\|->\.\n$/,
    ],
    [
      ['listening', 'campaigns', 'create', '--body', '-'],
      /^error: --body '-' must hold a JSON object, e\.g\. \{"name": "Launch watch"\}\.\n$/,
    ],
  ];
  it.each(idCases)('%j exits 2 with a clear message, nothing sent', async (argv, message) => {
    const { agent, env } = mockApi();
    const res = await runCli(argv, { env, dispatcher: agent, stdin: argv.includes('--body') ? '[1, 2]' : '' });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it.each([['0'], ['101'], ['1000']])('events list --page-size %s exits 2 (1-100), nothing sent', async (size) => {
    const { agent, env } = mockApi();
    const res = await runCli(['events', 'list', '--page-size', size], { env, dispatcher: agent });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`Invalid --page-size '${size}': must be between 1 and 100.`);
  });

  it('the shared helper keeps the keys/apps wording', () => {
    expect(positiveId(' 42 ', 'key id')).toBe('42');
    expect(() => positiveId('abc', 'app id')).toThrow("Invalid app id 'abc': expected a positive integer.");
    expect(() => positiveId(undefined, 'key id')).toThrow("Invalid key id '': expected a positive integer.");
  });
});

describe('group help', () => {
  it.each([
    ['listening'],
    ['listening', 'subscriptions'],
    ['listening', 'campaigns'],
    ['events'],
    ['auth'],
    ['keys'],
    ['apps'],
  ])('%s --help has examples', async (...path: string[]) => {
    const res = await runCli([...path, '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Examples:');
    expect(res.stdout).toMatch(/\$ creators /);
  });

  it('events tail --help says how many forward attempts are made, as the code does', async () => {
    const res = await runCli(['events', 'tail', '--help']);
    expect(res.stdout.replace(/\s+/g, ' ')).toContain(`up to ${FORWARD_ATTEMPTS} attempts`);
    expect(FORWARD_ATTEMPTS).toBe(5);
  });
});
