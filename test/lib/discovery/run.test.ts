import { DISCOVERY_NAMES } from '../../../src/commands/discovery-flags.js';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/lib/api/plan.js';
import { runDiscovery, type DiscoveryPorts } from '../../../src/lib/discovery/run.js';
import type { HttpClient } from '../../../src/lib/http/client.js';
import type { RequestOptions } from '../../../src/lib/http/types.js';
import type { OutputSettings } from '../../../src/lib/output/types.js';
import { screen } from '../../helpers/screen.js';
import { memoryTerminal, type MemoryTerminal } from '../../helpers/terminal.js';

const JSONL: OutputSettings = { format: 'jsonl', formatExplicit: true, color: false, quiet: false };

/** An HTTP double that answers Discovery POSTs from `pages` (by wire page) and records every request. */
function fakeHttp(
  pages: Record<number, unknown[]>,
  lists: unknown[] = [],
): { http: HttpClient; sent: RequestOptions[] } {
  const sent: RequestOptions[] = [];
  const http = {
    async request(req: RequestOptions) {
      sent.push(req);
      if (req.method === 'GET') return { status: 200, headers: {}, data: lists, url: '' };
      const paging = (req.body as { paging: { page: number; limit: number } }).paging;
      const accounts = pages[paging.page] ?? [];
      return { status: 200, headers: {}, data: { accounts, credits_left: '9.5' }, url: '' };
    },
    load: () => ({ perSecond: 5, latencyMs: 1, oldestInFlightMs: 0 }),
  } as unknown as HttpClient;
  return { http, sent };
}

/** The notices and warnings on the terminal's screen (the progress line of --all erased under them). */
function noteLines(term: MemoryTerminal): string[] {
  return screen(term.err()).filter((line) => line !== '');
}

function ports(
  http: HttpClient,
  over: Partial<DiscoveryPorts> = {},
): DiscoveryPorts & { term: MemoryTerminal; gated: Plan[]; readonly notes: string[] } {
  const gated: Plan[] = [];
  const term = memoryTerminal({ stderrIsTTY: true });
  return {
    http: async () => http,
    term,
    get notes() {
      return noteLines(term);
    },
    output: JSONL,
    gate: async (plan) => (gated.push(plan), true),
    pageBase: 0,
    dryRun: false,
    hasCredential: async () => true,
    gated,
    ...over,
  } as DiscoveryPorts & { term: MemoryTerminal; gated: Plan[]; readonly notes: string[] };
}

const account = (id: string) => ({ user_id: id, profile: { username: id } });
const run = (over: Record<string, unknown> = {}) => ({
  kind: 'search' as const,
  platform: 'instagram',
  body: { platform: 'instagram', filters: null },
  paging: { limit: 2, page: 1, all: true },
  listIds: [],
  columns: [],
  named: DISCOVERY_NAMES,
  ...over,
});

describe('runDiscovery (lib, with ports)', () => {
  it('gates the plan of the whole run, then streams the pages out and sums the spend', async () => {
    const { http, sent } = fakeHttp({ 0: [account('a'), account('b')], 1: [account('c')] });
    const p = ports(http);
    await runDiscovery(p, run());
    await new Promise((resolve) => setImmediate(resolve)); // the last line reaches the stream's reader
    expect(p.gated).toHaveLength(1);
    expect(p.gated[0]).toMatchObject({
      method: 'POST',
      path: 'discovery',
      body: { paging: { limit: 2, page: 0 } },
      worstCaseMilli: 100_000,
    });
    expect(sent.map((r) => (r.body as { paging: unknown }).paging)).toEqual([
      { limit: 2, page: 0 },
      { limit: 2, page: 1 },
    ]);
    expect(
      p.term
        .out()
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { user_id: string }).user_id),
    ).toEqual(['a', 'b', 'c']);
    expect(p.notes).toEqual(['Spent 0.03 credits on 3 creators (2 pages); 9.5 credits left.']);
  });

  it('a closed gate (dry run, no confirmation) sends nothing billable', async () => {
    const { http, sent } = fakeHttp({ 0: [account('a')] });
    const p = ports(http, { gate: async () => false });
    await runDiscovery(p, run());
    expect(sent).toEqual([]);
    expect(p.term.out()).toBe('');
  });

  it('checks exclusion lists with one free GET before the gate; a dry run without a credential only warns', async () => {
    const { http, sent } = fakeHttp({}, [{ id: 3, name: 'x', platform: 'tiktok' }]);
    await expect(runDiscovery(ports(http), run({ listIds: [3] }))).rejects.toThrow(
      /is for tiktok, not instagram; nothing was sent/,
    );
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET discovery/exclusion-lists']);
    const dry = fakeHttp({});
    const p = ports(dry.http, { dryRun: true, hasCredential: async () => false, gate: async () => false });
    await runDiscovery(p, run({ listIds: [3] }));
    expect(dry.sent).toEqual([]);
    expect(p.notes[0]).toMatch(/^warning: Exclusion lists not verified \(3\)/);
  });

  it('asks for no further page once the signal is aborted', async () => {
    const controller = new AbortController();
    const { http, sent } = fakeHttp({ 0: [account('a'), account('b')], 1: [account('c'), account('d')] });
    const p = ports(http, { signal: controller.signal });
    const out = p.term;
    controller.abort();
    await expect(runDiscovery(p, run())).rejects.toThrow(/Interrupted/);
    expect(sent).toEqual([]);
    expect(out.out()).toBe('');
  });
});
