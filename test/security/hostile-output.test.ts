/**
 * The hostile corpus through every printer and error path: on a terminal, no raw control character
 * from data reaches stdout (tables, cards, event lines) or stderr (notices, errors, debug lines), and the
 * data is still there, as visible escapes; machine formats keep the data exactly.
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir, type RunOptions, type RunResult } from '../helpers/run-cli.js';
import {
  expectNoCredential,
  expectNoRawControls,
  HOSTILE,
  KEY,
  on,
  SEQUENCES,
  useHostileServer,
  type Route,
} from './hostile.js';

const server = useHostileServer();

/** How the corpus reads once escaped: what a person sees instead of the sequence. */
const VISIBLE_OSC0 = String.raw`\x1b]0;pwned\x07`;
const VISIBLE_C1 = String.raw`\u009b31m`;
/** A right-to-left override, which would show the rest of the line reversed. */
const VISIBLE_RLO = String.raw`gnp\u202eexe`;

const account = {
  user_id: 'u1',
  profile: { username: `evil${HOSTILE}`, full_name: HOSTILE, followers: 1000, engagement_percent: 1.5 },
};
const event = {
  id: 41,
  event_type: `bio_change${SEQUENCES['OSC 0 (window title)']}`,
  creator: { platform: 'instagram', platform_id: HOSTILE },
  event_value: { bio: HOSTILE, caption: `caption ${HOSTILE}` },
  date_occurance: '2026-11-22T09:00:00Z',
};
const credits = on('GET', 'accounts/credits/', { status: 200, body: { credits_available: 9, credits_used: 1 } });
const enrichReply = on('POST', 'creators/enrich/handle/raw/', {
  status: 200,
  body: {
    result: { instagram: { username: HOSTILE, full_name: HOSTILE, biography: HOSTILE, follower_count: 10 } },
    credits_cost: 0.03,
  },
});

const DATA_CASES: Array<{ name: string; argv: string[]; routes: Route[] }> = [
  {
    name: 'search table',
    argv: ['search', '--platform', 'instagram'],
    routes: [
      on('POST', 'discovery/', { status: 200, body: { total: 1, limit: 15, credits_left: '9', accounts: [account] } }),
      credits,
    ],
  },
  {
    name: 'dict table',
    argv: ['dict', 'languages'],
    routes: [on('GET', 'discovery/classifier/languages', { status: 200, body: [{ code: 'xx', name: HOSTILE }] })],
  },
  {
    name: 'enrich handle card',
    argv: ['enrich', 'handle', 'someone', '--platform', 'instagram', '--mode', 'raw'],
    routes: [enrichReply, credits],
  },
  {
    name: 'enrich handle table',
    argv: ['enrich', 'handle', 'one', 'two', '--platform', 'instagram', '--mode', 'raw'],
    routes: [enrichReply, credits],
  },
  {
    name: 'events list table',
    argv: ['events', 'list'],
    routes: [
      on('GET', 'social/listening/events/', {
        status: 200,
        body: { count: 1, next: null, previous: null, results: [event] },
      }),
    ],
  },
  {
    name: 'events tail lines',
    argv: ['events', 'tail', '--once'],
    routes: [
      on('GET', 'social/listening/events/', {
        status: 200,
        body: { count: 1, next: null, previous: null, results: [event] },
      }),
    ],
  },
  {
    name: 'keys list table',
    argv: ['keys', 'list'],
    routes: [
      on('GET', 'accounts/tokens', {
        status: 200,
        body: [{ id: 1, name: HOSTILE, token: 'sk_live_other_key_999999', active: true }],
      }),
    ],
  },
];

/** A terminal on stdout (tables, cards, lines); stderr piped so that the CLI's own spinner stays out of it. */
async function onTerminal(argv: string[], routes: Route[], options: RunOptions = {}): Promise<RunResult> {
  server.get().routes(...routes);
  return runCli(argv, {
    env: { CREATORS_BASE_URL: server.get().url, CREATORS_API_KEY: KEY },
    stdoutTTY: true,
    stderrTTY: false,
    columns: 1000,
    ...options,
  });
}

describe('hostile data on a terminal', () => {
  for (const c of DATA_CASES) {
    it(`${c.name}: control characters shown as escapes on stdout and stderr, with --no-color and --debug`, async () => {
      for (const extra of [['--no-color'], ['--no-color', '--debug']]) {
        const res = await onTerminal([...c.argv, ...extra], c.routes);
        expect(
          res.stderr.split('\n').filter((l) => l.startsWith('error')),
          res.stderr,
        ).toEqual([]);
        expect(res.code).toBe(0);
        expectNoRawControls(res.stdout, `${c.name} ${extra.join(' ')} stdout`);
        expectNoRawControls(res.stderr, `${c.name} ${extra.join(' ')} stderr`);
        expectNoCredential(res.stderr, `${c.name} ${extra.join(' ')} stderr`);
        // The data is shown, not dropped: the escapes are there for a person to read.
        expect(res.stdout).toContain(VISIBLE_OSC0);
        expect(res.stdout).toContain(VISIBLE_RLO);
        if (c.name !== 'events tail lines' || extra.length === 1)
          expect(res.stdout).toMatch(/\\u009b31m|\\x1b\]0;pwned/);
      }
    });
  }

  it('with colour on a full terminal our own colour codes remain, and nothing else', async () => {
    const c = DATA_CASES[0]!;
    const res = await onTerminal(c.argv, c.routes, { stderrTTY: true });
    expect(res.code).toBe(0);
    // Our own SGR colour codes are allowed; the corpus must not add any other sequence.
    expect(res.stdout).toMatch(/\x1b\[36m/);
    expectNoRawControls(res.stdout.replace(/\x1b\[[0-9;]*m/g, ''), 'stdout without SGR');
    expect(res.stdout).toContain(VISIBLE_C1);
  });

  it('an event whose id is not a number: the error quoting it is escaped (text and JSON)', async () => {
    const bad = { ...event, id: `\u009b2J${HOSTILE}` };
    const routes = [
      on('GET', 'social/listening/events/', {
        status: 200,
        body: { count: 1, next: null, previous: null, results: [bad] },
      }),
    ];
    const text = await onTerminal(['events', 'tail', '--once'], routes);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('without a numeric id');
    expectNoRawControls(text.stderr, 'text error');
    const json = await onTerminal(['events', 'tail', '--once', '--json'], routes);
    expectNoRawControls(json.stderr, 'JSON error');
    expect(json.errorJson().error.message).toContain('\u009b2J');
  });
});

describe('machine formats keep the data exactly', () => {
  it('json, jsonl, csv and tsv carry the corpus byte for byte; JSON writes C1 as \\u escapes', async () => {
    const routes = DATA_CASES[0]!.routes;
    const json = await onTerminal(['search', '--platform', 'instagram', '--json'], routes, { stdoutTTY: false });
    expect(json.code).toBe(0);
    expect(json.json<(typeof account)[]>()[0]!.profile.full_name).toBe(HOSTILE);
    // JSON.stringify escapes C0; C1 (a one-byte CSI for `jq -r` on a terminal) is escaped too.
    expectNoRawControls(json.stdout, 'json stdout');
    expect(json.stdout).toContain('\\u009b31m');
    expect(json.stdout).toContain('gnp\\u202eexe');
    const jsonl = await onTerminal(['search', '--platform', 'instagram', '--format', 'jsonl'], routes, {
      stdoutTTY: false,
    });
    expectNoRawControls(jsonl.stdout, 'jsonl stdout');
    expect(JSON.parse(jsonl.stdout.trim()).profile.full_name).toBe(HOSTILE);
    const csv = await onTerminal(['search', '--platform', 'instagram', '--format', 'csv'], routes, {
      stdoutTTY: false,
    });
    expect(csv.stdout).toContain(SEQUENCES['OSC 0 (window title)']);
    expect(csv.stdout).toContain('\u009b31m');
    expect(csv.stdout).toContain(SEQUENCES['RLO (shows text reversed)']);
    expect(csv.stdout).toContain(SEQUENCES['zero-width space, joiners, BOM']);
    const item = await onTerminal(
      ['enrich', 'handle', 'someone', '--platform', 'instagram', '--mode', 'raw', '--json'],
      [enrichReply, credits],
      { stdoutTTY: false },
    );
    expectNoRawControls(item.stdout, 'json item stdout');
    expect(item.json<{ result: { instagram: { biography: string } } }>().result.instagram.biography).toBe(HOSTILE);
  });
});

const ERRORS: Array<{ name: string; reply: Route; expectCode: number; shows: RegExp }> = [
  {
    name: '400 error/detail',
    reply: on('GET', 'accounts/credits/', {
      status: 400,
      body: { error: HOSTILE, detail: `${HOSTILE} sent with key ${KEY}` },
    }),
    expectCode: 1,
    shows: /Request failed \(HTTP 400\)/,
  },
  {
    name: '401 quoting the Authorization header',
    reply: on('GET', 'accounts/credits/', {
      status: 401,
      body: { detail: `Invalid token in 'Authorization: Bearer ${KEY}' ${HOSTILE}` },
    }),
    expectCode: 4,
    shows: /Authentication failed \(HTTP 401\)/,
  },
  {
    name: '429 with a hostile detail',
    reply: on('GET', 'accounts/credits/', {
      status: 429,
      body: { detail: `${HOSTILE} slow down ${KEY}`, retry_after: 3600 },
    }),
    expectCode: 6,
    shows: /HTTP 429|3600/,
  },
  {
    name: 'HTML error page with a hostile <title>',
    reply: on('GET', 'accounts/credits/', {
      status: 403,
      body: `<!doctype html><html><head><title>${HOSTILE} ${KEY}</title></head><body>x</body></html>`,
    }),
    expectCode: 1,
    shows: /HTTP 403/,
  },
];

describe('hostile error bodies', () => {
  for (const e of ERRORS) {
    it(`${e.name}: one escaped, redacted line in text; a clean JSON error; a clean --debug log`, async () => {
      const text = await onTerminal(['credits'], [e.reply]);
      expect(text.code).toBe(e.expectCode);
      expect(text.stderr).toMatch(e.shows);
      expectNoRawControls(text.stderr, `${e.name} text`);
      expect(text.stderr).toContain(VISIBLE_OSC0);
      expectNoCredential(text.stderr, `${e.name} text`);
      expect(text.stderr).toContain('REDACTED');

      const json = await onTerminal(['credits', '--json'], [e.reply]);
      expect(json.code).toBe(e.expectCode);
      expectNoRawControls(json.stderr, `${e.name} JSON`);
      expectNoCredential(json.stderr, `${e.name} JSON`);
      expect(json.errorJson().error.message).toContain(SEQUENCES['OSC 0 (window title)']);

      const debug = await onTerminal(['credits', '--debug', '--no-color'], [e.reply]);
      expectNoRawControls(debug.stderr, `${e.name} --debug`);
      expectNoCredential(debug.stderr, `${e.name} --debug`);
      expectNoCredential(debug.stdout, `${e.name} --debug stdout`);
    });
  }
});

describe('the login listener', () => {
  it("an error redirect's hostile text is escaped in the text and JSON errors", async () => {
    server.get().routes(on('POST', 'oauth/register', { status: 201, body: { client_id: 'cli_hostile' } }));
    const opener = async (url: string): Promise<void> => {
      const authorize = new URL(url);
      const redirect = new URL(authorize.searchParams.get('redirect_uri') as string);
      redirect.searchParams.set('error', `access_denied${SEQUENCES['OSC 0 (window title)']}`);
      redirect.searchParams.set('error_description', HOSTILE);
      redirect.searchParams.set('state', authorize.searchParams.get('state') as string);
      void fetch(redirect).then(
        (r) => r.text(),
        () => '',
      );
    };
    for (const extra of [[], ['--json']]) {
      const res = await runCli(['login', ...extra], {
        env: { CREATORS_BASE_URL: server.get().url },
        configDir: tempConfigDir(),
        openBrowser: opener,
      });
      expect(res.code).toBe(4);
      expect(res.stderr).toContain('Login failed');
      expectNoRawControls(res.stderr, `login ${extra.join(' ')}`);
      if (extra.length === 0) expect(res.stderr).toContain(VISIBLE_OSC0);
    }
  });
});
