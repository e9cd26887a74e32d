/**
 * `creators mcp` through the protocol's own client: the SDK's `Client` over `StdioClientTransport` spawning the
 * built CLI against the sandbox, the sandbox's ledger as the judge of what was bought. Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { creatorHandles, sandboxEnv, useSandbox, type StartedSandbox } from '../helpers/sandbox.js';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/until.js';

const sb = useSandbox({ seed: 7, credits: 1000 });
const INSPECTOR = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js', import.meta.url),
);

interface Served {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

const open: Served[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.client.close().catch(() => undefined)));
});

function world(sandbox: StartedSandbox = sb.get()): Record<string, string> {
  return {
    ...sandboxEnv(sandbox),
    CREATORS_CONFIG_DIR: tempDir('creators-mcp-cfg-'),
    CREATORS_RATE_LIMIT: '100000',
    HOME: tempDir('creators-mcp-home-'),
  };
}

async function serve(
  env: Record<string, string>,
  args: string[] = [],
  o: { elicit?: 'accept' | 'decline' } = {},
): Promise<Served> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += String(d)));
  const client = new Client(
    { name: 'creators-test', version: '1.0.0' },
    { capabilities: o.elicit ? { elicitation: { form: {} } } : {} },
  );
  if (o.elicit) {
    const answer = o.elicit;
    client.setRequestHandler(ElicitRequestSchema, async () =>
      answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' },
    );
  }
  await client.connect(transport);
  const served: Served = {
    client,
    transport,
    stderr: () => stderr,
    call: async (name, a = {}) => (await client.callTool({ name, arguments: a })) as CallToolResult,
  };
  open.push(served);
  return served;
}

const text = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const charges = (sandbox: StartedSandbox = sb.get()) => sandbox.state.ledger.charges.length;

describe('creators mcp', () => {
  it('lists every tool with its annotations, and each one answers a tool result stating what it spent and the balance', async () => {
    const s = await serve(world(), ['--budget', '100']);
    const { tools } = await s.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'search_creators',
      'similar_creators',
      'dictionary',
      'enrich_handle',
      'enrich_email',
      'post_details',
      'creator_posts',
      'connected_socials',
      'audience_overlap',
      'batch_create',
      'batch_status',
      'batch_results',
      'batch_resume',
      'credits',
      'spend',
      'store_lookup',
      'exclusion_lists',
      'exclusion_entries',
      'exclusion_create',
      'exclusion_add',
      'listening_usage',
      'listening_subscriptions',
      'listening_campaigns',
      'listening_campaign_overview',
      'listening_campaign_content',
      'quote',
    ]) {
      expect(names).toContain(name);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('credits')?.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(byName.get('store_lookup')?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get('batch_create')?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.get('enrich_handle')?.description).toMatch(/raw 0\.03.*full 1 credit/);
    expect((byName.get('search_creators')?.inputSchema.properties?.limit as { maximum?: number }).maximum).toBe(50);
    expect((byName.get('search_creators')?.inputSchema.properties?.platform as { enum?: string[] }).enum).toContain(
      'tiktok',
    );

    const [a, b, c] = creatorHandles(sb.get(), 3, 40);
    const list = await s.call('exclusion_create', { name: 'mcp-test', platform: 'instagram' });
    const listId = /"id":\s*(\d+)/.exec(text(list))?.[1];
    expect(listId, text(list)).toBeDefined();
    const batch = await s.call('batch_create', { values: [a, b], mode: 'raw', platform: 'instagram' });
    const batchId = /bch_\w+/.exec(text(batch))?.[0];
    expect(batchId, text(batch)).toBeDefined();
    const posts = await s.call('creator_posts', { creator: b, platform: 'instagram' });
    const postUrl = /"post_url": "([^"]+)"/.exec(text(posts))?.[1];
    expect(postUrl, text(posts)).toBeDefined();
    // The job runs on the sandbox's batch clock: an hour later it is done.
    const advanced = await fetch(`${sb.get().url}/_sandbox/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"advanceSeconds": 3600}',
    });
    expect(advanced.ok).toBe(true);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['credits', {}],
      ['dictionary', { kind: 'languages', search: 'port' }],
      ['search_creators', { platform: 'instagram', limit: 3 }],
      ['similar_creators', { creator: a, platform: 'instagram', limit: 2 }],
      ['enrich_handle', { handles: [a], platform: 'instagram', mode: 'raw' }],
      ['enrich_email', { emails: ['carladiy.collabs@example.com'] }],
      ['post_details', { post: postUrl }],
      ['connected_socials', { handles: [c], platform: 'instagram' }],
      ['audience_overlap', { creators: [a, b], platform: 'instagram' }],
      ['batch_status', { id: batchId }],
      ['batch_results', { id: batchId }],
      ['batch_resume', { id: batchId }],
      ['spend', {}],
      ['store_lookup', {}],
      ['exclusion_lists', { platform: 'instagram' }],
      ['exclusion_add', { list: listId, handles: ['nike'] }],
      ['exclusion_entries', { list: listId }],
      ['listening_usage', {}],
      ['listening_subscriptions', {}],
      ['listening_campaigns', {}],
      ['listening_campaign_overview', { id: '999999' }],
      ['listening_campaign_content', { id: '999999' }],
      ['quote', { tool: 'enrich_handle', arguments: { handles: [a], platform: 'instagram', mode: 'full' } }],
    ];
    for (const [name, args] of calls) {
      const r = await s.call(name, args);
      const said = text(r);
      if (name === 'quote') {
        expect(said).toMatch(/Worst case: 1 credits/);
        continue;
      }
      // Every result, failures included, states the credits spent and the balance left.
      expect(said, name).toMatch(/Spent [\d.]+ credits.*Balance: [\d.]+ credits/);
      if (name.startsWith('listening_campaign_')) {
        // A campaign id that does not exist: the service's not-found as a tool error, with the CLI's line, free.
        expect(r.isError, said).toBe(true);
        expect(said).toMatch(/^Request failed \(HTTP 404\): Campaign not found\./);
        continue;
      }
      if (name === 'batch_resume') {
        // A finished job has nothing to resume: the CLI says so.
        expect(said, said).toMatch(/finished|completed|nothing to resume|not paused/i);
        continue;
      }
      expect(r.isError ?? false, `${name}: ${said}`).toBe(false);
    }
  }, 120_000);

  it('a client asking for the same creator 100 times pays once: every answer after the first comes from the store at 0 credits', async () => {
    const s = await serve(world());
    const [handle] = creatorHandles(sb.get(), 1, 70);
    const before = charges();
    let last = '';
    for (let i = 0; i < 100; i++) {
      const r = await s.call('enrich_handle', { handles: [handle], platform: 'instagram', mode: 'raw' });
      expect(r.isError ?? false).toBe(false);
      last = text(r);
      if (i === 0) expect(last).toMatch(/^Spent 0\.03 credits\./);
    }
    expect(last).toMatch(/^Spent 0 credits \(1 answer from the store at 0 credits\)/);
    expect(last).toContain('Session: 0.03 of 5 credits');
    // The free look-up finds it, by its handle alone.
    const held = await s.call('store_lookup', { handles: [`@${(handle as string).toUpperCase()}`] });
    const rows = JSON.parse(text(held).split('\n\n').slice(1).join('\n\n')) as Array<{ subject: string; kind: string }>;
    expect(rows).toEqual([expect.objectContaining({ subject: handle, kind: 'creator' })]);
    expect(text(held)).toMatch(/^Spent 0 credits\./);
    const bought = sb.get().state.ledger.charges.slice(before);
    expect(bought.map((c) => c.note)).toEqual([expect.stringContaining(handle as string)]);
  }, 180_000);

  it('the session budget stops a looping agent with a tool error saying what was spent and how to raise it; nothing more is bought', async () => {
    const s = await serve(world(), ['--budget', '0.1']);
    const handles = creatorHandles(sb.get(), 6, 80);
    const before = charges();
    const results: CallToolResult[] = [];
    for (const handle of handles)
      results.push(await s.call('enrich_handle', { handles: [handle], platform: 'instagram', mode: 'raw' }));
    expect(results.map((r) => r.isError ?? false)).toEqual([false, false, false, true, true, true]);
    const refusal = text(results[3] as CallToolResult);
    expect(refusal).toMatch(/^Session budget reached: this call may cost up to 0\.03 credits/);
    expect(refusal).toContain('this session has spent 0.09 of its 0.1 credits (0.01 left). Nothing was sent.');
    expect(refusal).toContain('creators mcp --budget');
    expect(charges() - before).toBe(3);
  }, 60_000);

  it('above confirm-above the user is asked through elicitation: accepted buys, declined buys nothing', async () => {
    const env = world();
    expect((await spawnCli(['config', 'set', 'confirm-above', '0.05'], env)).code).toBe(0);
    const yes = await serve(env, [], { elicit: 'accept' });
    let before = charges();
    const bought = await yes.call('search_creators', { platform: 'youtube', limit: 10 });
    expect(bought.isError ?? false, text(bought)).toBe(false);
    expect(text(bought)).toMatch(/^Spent 0\.1 credits/);
    expect(charges() - before).toBe(1);

    const no = await serve(env, [], { elicit: 'decline' });
    before = charges();
    const declined = await no.call('search_creators', { platform: 'tiktok', limit: 10 });
    expect(declined.isError).toBe(true);
    expect(text(declined)).toMatch(
      /^The user did not agree to spend up to 0\.1 credits .*nothing was sent and nothing was bought/,
    );
    expect(charges()).toBe(before);
  }, 60_000);

  it('above confirm-above without the elicitation capability: a tool error with the cost and how to confirm; confirm_credits then buys', async () => {
    const env = world();
    expect((await spawnCli(['config', 'set', 'confirm-above', '0.05'], env)).code).toBe(0);
    const s = await serve(env);
    const before = charges();
    const refused = await s.call('search_creators', { platform: 'twitter', limit: 10 });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /^This call may cost up to 0\.1 credits .*above the confirm-above setting \(0\.05 credits\); nothing was sent\./,
    );
    expect(text(refused)).toContain('call again with confirm_credits: 0.1');
    expect(charges()).toBe(before);
    const confirmed = await s.call('search_creators', { platform: 'twitter', limit: 10, confirm_credits: 0.1 });
    expect(confirmed.isError ?? false, text(confirmed)).toBe(false);
    expect(charges() - before).toBe(1);
  }, 60_000);

  it('--read-only serves only the free tools that change nothing; a paid tool is not there to call', async () => {
    const s = await serve(world(), ['--read-only']);
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('credits');
    expect(names).toContain('store_lookup');
    expect(names).toContain('quote');
    for (const paidOrWrite of ['search_creators', 'enrich_handle', 'batch_create', 'exclusion_create', 'batch_resume'])
      expect(names).not.toContain(paidOrWrite);
    const before = charges();
    const r = await s.client
      .callTool({ name: 'enrich_handle', arguments: { handles: ['x'], platform: 'instagram' } })
      .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    expect(r.isError).toBe(true);
    expect(charges()).toBe(before);
  }, 30_000);

  it('bad arguments are refused before anything is sent, naming the nearest valid value', async () => {
    const s = await serve(world());
    const before = charges();
    const platform = await s.call('search_creators', { platform: 'instagrm' });
    expect(platform.isError).toBe(true);
    expect(text(platform)).toContain("Invalid platform 'instagrm': did you mean instagram?");
    const filter = await s.call('search_creators', {
      platform: 'instagram',
      filters: { number_of_folowers: { min: 10 } },
    });
    expect(filter.isError).toBe(true);
    expect(text(filter)).toContain('Did you mean number_of_followers?');
    const limit = await s.call('search_creators', { platform: 'instagram', limit: 500 });
    expect(limit.isError).toBe(true);
    expect(text(limit)).toContain('at most 50');
    expect(charges()).toBe(before);
  }, 30_000);

  it("strangers' text is escaped as on a terminal: no raw bidi or control character reaches the model, in JSON or CSV", async () => {
    const creator = sb.get().state.creators.list('twitch')[0] as { profile: { full_name: string } };
    const original = creator.profile.full_name;
    creator.profile.full_name = 'photo_\u202egnp.exe\u001b[2J';
    try {
      const s = await serve(world());
      for (const format of ['json', 'csv']) {
        const r = await s.call('search_creators', { platform: 'twitch', limit: 50, format });
        const said = text(r);
        expect(said, format).toContain('photo_');
        expect(said).not.toMatch(/[\u202e\u001b]/);
        expect(said).toContain(format === 'json' ? 'photo_\\u202egnp.exe\\u001b[2J' : 'photo_\\u202egnp.exe\\x1b[2J');
      }
    } finally {
      creator.profile.full_name = original;
    }
  }, 60_000);

  it("the service's refusals are tool errors with the CLI's one-line cause and next step: 402, a 429 with its wait, and the server goes on", async () => {
    const poor = await startSandbox({
      port: 0,
      seed: 7,
      credits: 0.5,
      faults: '429:120 POST /public/v1/creators/socials/** count=1',
    });
    try {
      const s = await serve(world(poor));
      const [handle] = creatorHandles(poor, 1, 3);
      const broke = await s.call('enrich_handle', { handles: [handle], platform: 'instagram', mode: 'full' });
      expect(broke.isError).toBe(true);
      expect(text(broke)).toMatch(/credits/i);
      expect(text(broke)).toMatch(/Spent 0 credits\. Balance: 0\.5 credits\./);
      const limited = await s.call('connected_socials', { handles: [handle], platform: 'instagram' });
      expect(limited.isError).toBe(true);
      expect(text(limited)).toMatch(/120 s/);
      // Still serving, and still buying what it can pay for.
      const ok = await s.call('enrich_handle', { handles: [handle], platform: 'instagram', mode: 'raw' });
      expect(ok.isError ?? false, text(ok)).toBe(false);
      expect(text(ok)).toMatch(/^Spent 0\.03 credits\. Balance: 0\.47 credits\./);
    } finally {
      await poor.close();
    }
  }, 60_000);

  it('a result too big for a context: a summary and the first rows, the whole of it in a file and as a resource', async () => {
    const s = await serve(world(), ['--budget', '10']);
    const r = await s.call('search_creators', { platform: 'instagram', limit: 50 });
    expect(r.isError ?? false, text(r)).toBe(false);
    expect(text(r)).toMatch(/The result is too big to show whole: 50 records, \d+ KB of json\. The first rows:/);
    const link = r.content.find((c) => c.type === 'resource_link') as { uri: string } | undefined;
    expect(link?.uri).toMatch(/^creators:\/\/results\/\d+-search_creators\.json$/);
    const path = /The whole result: (\S+\.json)/.exec(text(r))?.[1] as string;
    expect(existsSync(path)).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveLength(50);
    const resource = await s.client.readResource({ uri: link?.uri as string });
    expect(JSON.parse((resource.contents[0] as { text: string }).text)).toHaveLength(50);
    // The same page again, as CSV: from the store, at 0 credits, in the CLI's -o format.
    const csv = await s.call('search_creators', { platform: 'instagram', limit: 50, format: 'csv' });
    expect(text(csv)).toMatch(/^Spent 0 credits \(1 answer from the store/);
    // Small enough as CSV to be given whole: the header and 50 rows.
    const rows = text(csv).split('\n\n').slice(1).join('\n\n').split('\n');
    expect(rows[0]).toMatch(/^user_id,/);
    expect(rows).toHaveLength(51);
  }, 60_000);

  it('a client that disconnects mid-call loses no paid answer: the server finishes it into the store, and a later call gets it at 0', async () => {
    const slow = await startSandbox({ port: 0, seed: 7, credits: 100, latency: 'enrich=2500ms' });
    try {
      const env = world(slow);
      const [handle] = creatorHandles(slow, 1, 5);
      const first = await serve(env);
      const pid = first.transport.pid as number;
      void first
        .call('enrich_handle', { handles: [handle], platform: 'instagram', mode: 'raw' })
        .catch(() => undefined);
      // Gone while the call is in flight: the sandbox charges when a request arrives and holds the reply 2.5 s,
      // so the client's SIGTERM (2 s after it closes stdin) comes mid-request and its SIGKILL (4 s) after it.
      await until('the purchase on the wire', () => slow.state.ledger.charges.length === 1, 20_000);
      await first.client.close();
      await until('the server to exit', () => !alive(pid), 10_000);
      expect(slow.state.ledger.charges.map((c) => c.note)).toEqual([expect.stringContaining(handle as string)]);
      const second = await serve(env);
      const again = await second.call('enrich_handle', { handles: [handle], platform: 'instagram', mode: 'raw' });
      expect(text(again)).toMatch(/^Spent 0 credits \(1 answer from the store at 0 credits\)/);
      expect(slow.state.ledger.charges).toHaveLength(1);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('stdout carries nothing but JSON-RPC messages, notices and warnings included (they go to stderr)', async () => {
    const env = world();
    const [handle] = creatorHandles(sb.get(), 1, 90);
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.stderr.on('data', (d: Buffer) => (err += String(d)));
    const send = (m: object): boolean => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    await until('initialize answered', () => out.includes('"id":1'), 10_000);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // The second call is a store hit: the CLI says so in a notice, which must not reach stdout.
    for (const id of [2, 3]) {
      send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'enrich_handle', arguments: { handles: [handle], platform: 'instagram', mode: 'raw' } },
      });
      await until(`call ${id} answered`, () => out.includes(`"id":${id}`), 15_000);
    }
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'search_creators', arguments: { platform: 'instagram', filters: { bogus: 1 } } },
    });
    await until('call 4 answered', () => out.includes('"id":4'), 15_000);
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(4);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(err).toContain('creators mcp: ');
    expect(out).toContain('from the store at 0 credits');
  }, 60_000);
});

describe('creators mcp under the official MCP inspector (its CLI mode)', () => {
  // The conformance runner (@modelcontextprotocol/conformance) drives a server over Streamable HTTP at a URL only
  // (and needs Node 22); this server speaks stdio, which the inspector's CLI mode drives.
  const inspector = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      // inspector-cli 1.0.3 finds its own package.json as ../package.json of the working directory (the import then resolves from its own folder): test/'s parent, the repository, has one.
      const child = spawn(process.execPath, [INSPECTOR, '--cli', process.execPath, BIN, 'mcp', ...args], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
      child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  it('lists the tools with valid schemas and calls a paid one through the gate and the store', async () => {
    const env = world();
    const list = await inspector(['--method', 'tools/list'], env);
    expect(list.code, list.stderr).toBe(0);
    const { tools } = JSON.parse(list.stdout) as { tools: Array<{ name: string; inputSchema: { type: string } }> };
    expect(tools.length).toBeGreaterThanOrEqual(26);
    for (const t of tools) expect(t.inputSchema.type).toBe('object');
    const [handle] = creatorHandles(sb.get(), 1, 95);
    const before = charges();
    for (const expected of [/^Spent 0\.03 credits\./, /^Spent 0 credits \(1 answer from the store at 0 credits\)/]) {
      const call = await inspector(
        [
          '--method',
          'tools/call',
          '--tool-name',
          'enrich_handle',
          '--tool-arg',
          'platform=instagram',
          '--tool-arg',
          'mode=raw',
          '--tool-arg',
          `handles=["${handle}"]`,
        ],
        env,
      );
      expect(call.code, call.stderr).toBe(0);
      const result = JSON.parse(call.stdout) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      expect(text(result)).toMatch(expected);
    }
    expect(charges() - before).toBe(1);
  }, 60_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
