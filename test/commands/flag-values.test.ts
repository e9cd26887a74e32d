import { describe, expect, it } from 'vitest';
import type { ParsedVerb } from '../../src/program.js';
import { CONCURRENCY_CAP } from '../../src/lib/options.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * Flag values are read when the command line is, before the verb runs: these run in-process with the
 * verb replaced (`run`), so nothing needs a server, a store or an HTTP double.
 */
async function parsed(argv: string[]): Promise<{ code: number; stderr: string; verb: ParsedVerb | undefined }> {
  let verb: ParsedVerb | undefined;
  const res = await runCli(argv, { run: (v) => void (verb = v) });
  return { code: res.code, stderr: res.stderr, verb };
}

describe('flag values reach the verb typed', () => {
  it.each([
    // integer, with bounds
    [['search', '--limit', '50'], 'limit', 50],
    [['search', '--limit', ' 7 '], 'limit', 7],
    [['search'], 'page', 1],
    [['search', '--page', '3'], 'page', 3],
    [['search', '--max-results', '120'], 'maxResults', 120],
    [['search', '--min-followers', '0'], 'minFollowers', 0],
    [['search', '--exclude-list', '3', '--exclude-list', '12'], 'excludeList', [3, 12]],
    [['search'], 'excludeList', []],
    [['search'], 'limit', undefined],
    [['enrich', 'handle', '--concurrency', String(CONCURRENCY_CAP)], 'concurrency', CONCURRENCY_CAP],
    [['enrich', 'email', '--max-rows', '1'], 'maxRows', 1],
    [['listening', 'campaigns', 'create', '--days', '365'], 'days', 365],
    [['listening', 'campaigns', 'update', '2', '--days', '1'], 'days', 1],
    [['exclusions', 'entries', '3', '--limit', '2000'], 'limit', 2000],
    [['exclusions', 'entries', '3', '--offset', '0'], 'offset', 0],
    [['events', 'list', '--page-size', '100'], 'pageSize', 100],
    [['events', 'list', '--page', '2'], 'page', 2],
    [['events', 'tail', '--backlog', 'all'], 'backlog', Number.POSITIVE_INFINITY],
    [['events', 'tail', '--backlog', '0'], 'backlog', 0],
    [['dict', 'languages', '--limit', '100'], 'limit', 100],
    [['api', 'x', '--max-pages', '2'], 'maxPages', 2],
    [['posts', 'x', '--count', '35'], 'count', 35],
    [['post', 'x', '--max-pages', '1'], 'maxPages', 1],
    [['enrich', 'email', '--min-followers', '10000'], 'minFollowers', 10_000],
    [['sandbox'], 'seed', 42],
    [['sandbox'], 'rateLimit', 300],
    [['sandbox'], 'credits', 1000],
    [['sandbox', '--port', '0'], 'port', 0],
    [['sandbox', '--page-base', '1'], 'pageBase', 1],
    [['sandbox', '--credits', '0.125'], 'credits', 0.125],
    [['login', '--port', '8085'], 'port', 8085],
    // seconds
    [['batch', 'poll', '7', '--interval', '0.5'], 'interval', 0.5],
    [['batch', 'run', 'x.csv', '--max-wait', '90'], 'maxWait', 90],
    [['events', 'tail', '--interval', '86400'], 'interval', 86_400],
    [['login', '--login-timeout', '1.5'], 'loginTimeout', 1.5],
    // isoTime, isoTimeOrNone: a UTC ISO string
    [['keys', 'create', '--expires-at', '2027-01-31'], 'expiresAt', '2027-01-31T00:00:00.000Z'],
    [['keys', 'update', '3', '--expires-at', ' 2027-01-31T12:00:00+02:00 '], 'expiresAt', '2027-01-31T10:00:00.000Z'],
    [['keys', 'update', '3', '--expires-at', 'None'], 'expiresAt', null],
    [['keys', 'create'], 'expiresAt', undefined],
    // httpUrlOrNone
    [
      ['listening', 'subscriptions', 'create', '--webhook-url', 'https://example.com/hook'],
      'webhookUrl',
      'https://example.com/hook',
    ],
    [['listening', 'subscriptions', 'update', '3', '--webhook-url', 'none'], 'webhookUrl', null],
    // event types: known ones as spelled, others passed on
    [
      ['listening', 'subscriptions', 'create', '--type', 'NEW_POST, bio_change,later_type,'],
      'type',
      ['new_post', 'bio_change', 'later_type'],
    ],
    // delimiter: one character or its name
    [['enrich', 'handle', '--input', 'x.csv', '--delimiter', 'tab'], 'delimiter', '\t'],
    [['batch', 'upload', 'x.csv', '--mode', 'raw', '--delimiter', 'Semicolon'], 'delimiter', ';'],
    [['exclusions', 'add', '3', '--delimiter', '\\t'], 'delimiter', '\t'],
    [['search', '--delimiter', 'é'], 'delimiter', 'é'],
    // the --ai-search brief, trimmed
    [['search', '--ai-search', '  vegan food  '], 'aiSearch', 'vegan food'],
    [['similar', 'nasa', '--ai-search', 'abc'], 'aiSearch', 'abc'],
    // when: an age back from when the verb runs, or a moment (a date is local midnight)
    [['spend', '--since', '7d'], 'since', { text: '7d', ago: 7 * 86_400_000 }],
    [['spend', '--until', ' 24h '], 'until', { text: ' 24h ', ago: 86_400_000 }],
    [['spend', '--since', '2026-11-01'], 'since', { text: '2026-11-01', at: new Date(2026, 10, 1).getTime() }],
    [
      ['spend', '--until', '2026-11-02T12:00:00Z'],
      'until',
      { text: '2026-11-02T12:00:00Z', at: Date.UTC(2026, 10, 2, 12) },
    ],
    [['spend'], 'since', undefined],
    // age: a duration with its text, for the messages that quote it
    [['store', 'list', '--older-than', '90d'], 'olderThan', { ms: 90 * 86_400_000, text: '90d' }],
    [['store', 'export', '--newer-than', '12h'], 'newerThan', { ms: 12 * 3_600_000, text: '12h' }],
    [['store', 'prune', '--older-than', '0'], 'olderThan', { ms: 0, text: '0' }],
    // id: a positive whole number, as its path segment
    [['events', 'list', '--subscription', ' 3 '], 'subscription', '3'],
    [['events', 'tail', '--subscription', '12'], 'subscription', '12'],
    // text: trimmed, never blank
    [['events', 'list', '--creator', ' nasa '], 'creator', 'nasa'],
    [['events', 'tail', '--type', 'NEW_POST'], 'type', 'NEW_POST'],
    // keyValue: the dot path and the value typed
    [
      ['search', '--filter', 'number_of_followers.min=10000', '--filter', 'topics=a,b'],
      'filter',
      [
        { path: ['number_of_followers', 'min'], value: 10_000 },
        { path: ['topics'], value: ['a', 'b'] },
      ],
    ],
    [['listening', 'subscriptions', 'create', '--set', 'x.y="3"'], 'set', [{ path: ['x', 'y'], value: '3' }]],
    [['search'], 'filter', []],
  ] as const)('%j: %s is %j', async (argv, key, value) => {
    const { code, stderr, verb } = await parsed([...argv]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(verb?.flags[key]).toEqual(value);
  });

  it.each([
    // seconds and whole numbers, as the HTTP client takes them
    [['credits', '--timeout', '2.5'], 'timeout', 2.5],
    [['credits', '--timeout', '1e1'], 'timeout', 10],
    [['credits', '--retries', '0'], 'retries', 0],
    // credits: thousandths, exactly
    [['credits', '--max-credits', '0.03'], 'maxCredits', 30],
    [['credits', '--max-credits', '0.5005'], 'maxCredits', 501],
    [['credits', '--max-credits', '0.1'], 'maxCredits', 100],
    [['credits', '--max-credits', '12'], 'maxCredits', 12_000],
    [['credits', '--max-credits', '1e3'], 'maxCredits', 1_000_000],
    [['credits', '--max-credits', ''], 'maxCredits', null],
    // durations in ms
    [['credits', '--max-age', '24h'], 'maxAge', 86_400_000],
    [['credits', '--max-age', '0'], 'maxAge', 0],
    [['credits', '--max-age', ' '], 'maxAge', null],
    [['credits'], 'maxAge', undefined],
    // field paths, in order
    [['credits', '--fields', ' profile.username , user_id '], 'fields', ['profile.username', 'user_id']],
    [['credits', '--api-key', 'k-1'], 'apiKey', 'k-1'],
  ] as const)('global %j: %s is %j', async (argv, key, value) => {
    const { code, stderr, verb } = await parsed([...argv]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(verb?.globals[key]).toEqual(value);
  });
});

describe('a value that is not one is a usage error naming the flag (exit 2), before the verb runs', () => {
  it.each([
    [['search', '--limit', 'x'], "error: Invalid --limit 'x': expected a whole number."],
    [['search', '--limit', '0'], "error: Invalid --limit '0': must be 1 or more."],
    [['search', '--limit', '-5'], "error: Invalid --limit '-5': must be 1 or more."],
    [['search', '--limit', '1.5'], "error: Invalid --limit '1.5': expected a whole number."],
    [
      ['search', '--limit', '99999999999999999999'],
      "error: Invalid --limit '99999999999999999999': expected a whole number.",
    ],
    [
      ['search', '--limit', '51'],
      'error: Invalid --limit 51: at most 50 creators per page.\nUse --all to get more, page after page.',
    ],
    [['search', '--page', '0'], "error: Invalid --page '0': must be 1 or more."],
    [['similar', 'nasa', '--max-results', '0'], "error: Invalid --max-results '0': must be 1 or more."],
    [
      ['search', '--exclude-list', '3', '--exclude-list', 'abc'],
      "error: Invalid --exclude-list 'abc': expected a whole number.",
    ],
    [['search', '--min-followers', '-1'], "error: Invalid --min-followers '-1': must be 0 or more."],
    [['search', '--max-followers', 'many'], "error: Invalid --max-followers 'many': expected a whole number."],
    [
      ['enrich', 'handle', '--concurrency', String(CONCURRENCY_CAP + 1)],
      `error: Invalid --concurrency '${CONCURRENCY_CAP + 1}': at most ${CONCURRENCY_CAP}.`,
    ],
    [['enrich', 'handle', '--concurrency', '0'], "error: Invalid --concurrency '0': must be 1 or more."],
    [['socials', '--max-rows', 'x'], "error: Invalid --max-rows 'x': expected a whole number."],
    [['listening', 'campaigns', 'create', '--days', '366'], "error: Invalid --days '366': at most 365."],
    [['listening', 'campaigns', 'update', '2', '--days', '0'], "error: Invalid --days '0': must be 1 or more."],
    [
      ['batch', 'poll', '7', '--interval', '0'],
      "error: Invalid --interval '0': expected a number of seconds greater than 0.",
    ],
    [
      ['batch', 'poll', '7', '--max-wait', 'soon'],
      "error: Invalid --max-wait 'soon': expected a number of seconds greater than 0.",
    ],
    [['credits', '--timeout', '0'], "error: Invalid --timeout '0': expected a number of seconds above 0."],
    [['credits', '--timeout', '-1'], "error: Invalid --timeout '-1': expected a non-negative number."],
    [['credits', '--retries', '1.5'], "error: Invalid --retries '1.5': expected a whole number."],
    [['credits', '--retries', 'x'], "error: Invalid --retries 'x': expected a non-negative number."],
    [['credits', '--max-credits', '-1'], "error: Invalid --max-credits '-1': expected a number, 0 or more."],
    [['credits', '--max-credits', 'lots'], "error: Invalid --max-credits 'lots': expected a number, 0 or more."],
    [['exclusions', 'entries', '3', '--limit', '2001'], 'error: Invalid --limit 2001: at most 2000 handles per page.'],
    [['exclusions', 'entries', '3', '--offset', '-1'], "error: Invalid --offset '-1': must be 0 or more."],
    [['events', 'list', '--page-size', '0'], "error: Invalid --page-size '0': must be between 1 and 100."],
    [['events', 'list', '--page-size', '101'], "error: Invalid --page-size '101': must be between 1 and 100."],
    [['events', 'list', '--page', '0'], "error: Invalid --page '0': must be 1 or more."],
    [
      ['events', 'tail', '--interval', '0'],
      "error: Invalid --interval '0': expected seconds, more than 0 (e.g. 10 or 0.5).",
    ],
    [
      ['events', 'tail', '--interval', '86401'],
      "error: Invalid --interval '86401': expected seconds, more than 0 (e.g. 10 or 0.5).",
    ],
    [['events', 'tail', '--backlog', 'some'], "error: Invalid --backlog 'some': expected a whole number."],
    [['dict', 'languages', '--limit', '0'], "error: Invalid --limit '0': expected a whole number from 1 to 100."],
    [['dict', 'languages', '--limit', '1e309'], "error: Invalid --limit '1e309': expected a whole number."],
    [['dict', 'languages', '--offset', '-2'], "error: Invalid --offset '-2': expected a whole number, 0 or more."],
    [['api', 'x', '--max-pages', '0'], "error: Invalid --max-pages '0': must be 1 or more."],
    [['posts', 'x', '--count', '0'], "error: Invalid --count '0': must be 1 or more."],
    [['enrich', 'email', '--min-followers', '-1'], "error: Invalid --min-followers '-1': must be 0 or more."],
    [['sandbox', '--port', '70000'], "error: Invalid --port '70000': expected 0 (any free port) to 65535."],
    [['sandbox', '--page-base', '2'], "error: Invalid --page-base '2': expected 0 or 1."],
    [['sandbox', '--seed', 'x'], "error: Invalid --seed 'x': expected a whole number."],
    [['sandbox', '--rate-limit', '0'], "error: Invalid --rate-limit '0': must be 1 or more."],
    [
      ['sandbox', '--credits', '1e308'],
      "error: Invalid --credits '1e308': expected a number from 0 to 1000000000 with at most three decimals.",
    ],
    [
      ['sandbox', '--credits', '0.0001'],
      "error: Invalid --credits '0.0001': expected a number from 0 to 1000000000 with at most three decimals.",
    ],
    [['login', '--port', '0'], "error: Invalid --port '0': expected a port number from 1 to 65535."],
    [['login', '--port', ' 80'], "error: Invalid --port ' 80': expected a port number from 1 to 65535."],
    [['login', '--login-timeout', '0'], "error: Invalid --login-timeout '0': expected a positive number of seconds."],
    [
      ['credits', '--max-age', 'soon'],
      "error: Invalid --max-age 'soon': expected a duration such as 14d, 24h, 30m or 0.",
    ],
    [
      ['keys', 'create', '--expires-at', 'none'],
      "error: Invalid --expires-at 'none': expected an ISO 8601 date or time such as 2027-01-31 or 2027-01-31T12:00:00Z.",
    ],
    [
      ['keys', 'update', '3', '--expires-at', ' 31/01/2027 '],
      "error: Invalid --expires-at '31/01/2027': expected an ISO 8601 date or time such as 2027-01-31 or 2027-01-31T12:00:00Z, or 'none'.",
    ],
    [
      ['keys', 'update', '3', '--expires-at', '2027-02-30x'],
      "error: Invalid --expires-at '2027-02-30x': expected an ISO 8601 date or time such as 2027-01-31 or 2027-01-31T12:00:00Z, or 'none'.",
    ],
    [
      ['listening', 'subscriptions', 'create', '--webhook-url', 'ftp://example.com'],
      "error: Invalid --webhook-url 'ftp://example.com': expected an http(s) URL, or none.",
    ],
    [
      ['listening', 'subscriptions', 'update', '3', '--webhook-url', 'example.com/hook'],
      "error: Invalid --webhook-url 'example.com/hook': expected an http(s) URL, or none.",
    ],
    [
      ['listening', 'subscriptions', 'update', '3', '--type', ' , '],
      'error: --type needs at least one event type, e.g. --type new_post,bio_change.',
    ],
    [
      ['enrich', 'handle', '--input', 'x.csv', '--delimiter', ';;'],
      "error: --delimiter must be one character (or tab, comma, semicolon, pipe), not ';;'.",
    ],
    [
      ['search', '--delimiter', '"'],
      "error: --delimiter must be one character (or tab, comma, semicolon, pipe), not '\"'.",
    ],
    [
      ['exclusions', 'remove', '3', '--delimiter', ''],
      "error: --delimiter must be one character (or tab, comma, semicolon, pipe), not ''.",
    ],
    [['search', '--ai-search', ' ab '], 'error: --ai-search must be 3 to 150 characters.'],
    [['similar', 'nasa', '--ai-search', 'x'.repeat(151)], 'error: --ai-search must be 3 to 150 characters.'],
    // A field list that cannot be read, or an empty key, is refused, never guessed at or replaced by another key.
    [
      ['credits', '--fields', 'a..b,'],
      "error: Invalid --fields 'a..b,': 'a..b' has an empty path segment; give dot paths separated by commas, e.g. profile.username,user_id.",
    ],
    [
      ['credits', '--fields', 'a,,b'],
      "error: Invalid --fields 'a,,b': field 2 of 3 is empty; give dot paths separated by commas, e.g. profile.username,user_id.",
    ],
    [
      ['credits', '--fields', 'user_id,'],
      "error: Invalid --fields 'user_id,': field 2 of 2 is empty; give dot paths separated by commas, e.g. profile.username,user_id.",
    ],
    [
      ['credits', '--fields', '.profile'],
      "error: Invalid --fields '.profile': '.profile' has an empty path segment; give dot paths separated by commas, e.g. profile.username,user_id.",
    ],
    [
      ['credits', '--api-key', ''],
      "error: --api-key is empty: give the key, or leave the flag out to use CREATORS_API_KEY or the profile's login.",
    ],
    [
      ['credits', '--api-key', '  '],
      "error: --api-key is empty: give the key, or leave the flag out to use CREATORS_API_KEY or the profile's login.",
    ],
    [
      ['credits', '--api-key', 'Bearer '],
      "error: --api-key is empty: give the key, or leave the flag out to use CREATORS_API_KEY or the profile's login.",
    ],
    [
      ['spend', '--since', 'yesterday'],
      "error: Invalid --since 'yesterday': expected a duration such as 7d or 24h, or a date such as 2026-11-01.",
    ],
    [
      ['spend', '--until', '2026-13-01'],
      "error: Invalid --until '2026-13-01': expected a duration such as 7d or 24h, or a date such as 2026-11-01.",
    ],
    [
      ['spend', '--since', '2026-11-01T99'],
      "error: Invalid --since '2026-11-01T99': expected a duration such as 7d or 24h, or a date such as 2026-11-01.",
    ],
    [
      ['store', 'list', '--older-than', 'soon'],
      "error: Invalid --older-than 'soon': expected a duration such as 14d, 24h, 30m or 0.",
    ],
    [
      ['store', 'export', '--newer-than', '-1d'],
      "error: Invalid --newer-than '-1d': expected a duration such as 14d, 24h, 30m or 0.",
    ],
    [
      ['store', 'prune', '--older-than', 'old'],
      "error: Invalid --older-than 'old': expected a duration such as 14d, 24h, 30m or 0.",
    ],
    [['events', 'list', '--subscription', 'abc'], "error: Invalid --subscription 'abc': expected a positive integer."],
    [['events', 'tail', '--subscription', '0'], "error: Invalid --subscription '0': expected a positive integer."],
    [['events', 'list', '--type', ' '], 'error: --type needs a value.'],
    [['events', 'tail', '--creator', ''], 'error: --creator needs a value.'],
    [
      ['similar', 'nasa', '--filter', 'novalue'],
      "error: Malformed --filter 'novalue': expected key=value (dot paths nest, e.g. number_of_followers.min=10000).",
    ],
    [
      ['listening', 'campaigns', 'update', '2', '--set', 'a..b=1'],
      "error: Malformed --set 'a..b=1': expected key=value (dot paths nest, e.g. number_of_followers.min=10000).",
    ],
  ] as const)('%j', async (argv, message) => {
    const { code, stderr, verb } = await parsed([...argv]);
    expect(verb).toBeUndefined();
    expect(code).toBe(2);
    expect(stderr).toBe(`${message}\n`);
  });
});
