/**
 * `creators mcp` as an unlucky agent and its human meet it: misspelt arguments, a client that answers its
 * elicitation badly, strangers' text read back as a resource, and where the whole results are kept. The SDK's
 * own client over stdio against the built CLI and the sandbox, whose ledger says what was bought.
 */
import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { creatorHandles, sandboxEnv, useSandbox, type StartedSandbox } from '../helpers/sandbox.js';
import { BIN, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const sb = useSandbox({ seed: 7, credits: 1000 });

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
});

function world(extra: Record<string, string> = {}, sandbox: StartedSandbox = sb.get()): Record<string, string> {
  return {
    ...sandboxEnv(sandbox),
    CREATORS_CONFIG_DIR: tempDir('creators-mcp-cfg-'),
    CREATORS_RATE_LIMIT: '100000',
    HOME: tempDir('creators-mcp-home-'),
    ...extra,
  };
}

async function serve(
  env: Record<string, string>,
  args: string[] = [],
  elicit?: () => ElicitResult | Promise<ElicitResult>,
) {
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
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  let asked = 0;
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return elicit();
    });
  }
  await client.connect(transport);
  open.push(client);
  return {
    client,
    stderr: () => stderr,
    asked: () => asked,
    call: async (name: string, a: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: a })) as CallToolResult,
  };
}

const text = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const charges = (): number => sb.get().state.ledger.charges.length;

describe('creators mcp, unlucky agents', () => {
  it('an argument the tool does not know is refused naming the nearest one, not dropped (a misspelt mode would buy a full enrichment)', async () => {
    const s = await serve(world());
    const [handle] = creatorHandles(sb.get(), 1, 11);
    const before = charges();
    const r = await s.call('enrich_handle', { handles: [handle], platform: 'instagram', Mode: 'raw' });
    expect(r.isError, text(r)).toBe(true);
    expect(text(r)).toContain("Unknown argument 'Mode': did you mean mode? Nothing was sent.");
    const q = await s.call('search_creators', { platform: 'instagram', max_result: 20 });
    expect(q.isError, text(q)).toBe(true);
    expect(text(q)).toContain('did you mean max_results?');
    // quote prices with the same rules: an argument the call would refuse is refused here too.
    const quoted = await s.call('quote', {
      tool: 'enrich_handle',
      arguments: { handles: [handle], platform: 'instagram', modes: 'raw' },
    });
    expect(quoted.isError, text(quoted)).toBe(true);
    expect(text(quoted)).toContain('did you mean mode?');
    expect(charges()).toBe(before);
  }, 60_000);

  it('elicitation: only an explicit yes buys (an accept without content does not), and confirm_credits cannot skip a user the client can ask', async () => {
    const env = world();
    expect((await spawnCli(['config', 'set', 'confirm-above', '0.05'], env)).code).toBe(0);
    const empty = await serve(env, [], () => ({ action: 'accept' }));
    let before = charges();
    const r = await empty.call('search_creators', { platform: 'youtube', limit: 10 });
    expect(r.isError, text(r)).toBe(true);
    expect(text(r)).toMatch(/^The user did not agree to spend up to 0\.1 credits/);
    expect(charges()).toBe(before);

    const no = await serve(env, [], () => ({ action: 'decline' }));
    before = charges();
    const skipped = await no.call('search_creators', { platform: 'tiktok', limit: 10, confirm_credits: 5 });
    expect(no.asked()).toBe(1);
    expect(skipped.isError, text(skipped)).toBe(true);
    expect(text(skipped)).toMatch(/^The user did not agree/);
    expect(charges()).toBe(before);

    // A client that declares elicitation but fails to ask: as one without it, confirm_credits after the user agreed.
    const broken = await serve(env, [], () => {
      throw new Error('no form here');
    });
    const refused = await broken.call('search_creators', { platform: 'twitter', limit: 10 });
    expect(refused.isError, text(refused)).toBe(true);
    expect(text(refused)).toContain('call again with confirm_credits: 0.1');
    const confirmed = await broken.call('search_creators', { platform: 'twitter', limit: 10, confirm_credits: 0.1 });
    expect(confirmed.isError ?? false, text(confirmed)).toBe(false);
    expect(charges() - before).toBe(1);
  }, 90_000);

  it("a large CSV result read back as a resource is sanitised as the inline rows are: no raw control or bidi character of strangers' text", async () => {
    const creator = sb.get().state.creators.list('twitch')[1] as { profile: { full_name: string } };
    const original = creator.profile.full_name;
    creator.profile.full_name = `photo_\u202egnp.exe\u001b[2J${'x'.repeat(15_000)}`;
    try {
      const s = await serve(world(), ['--budget', '10']);
      for (const format of ['csv', 'tsv']) {
        const r = await s.call('search_creators', { platform: 'twitch', limit: 50, format });
        const link = r.content.find((c) => c.type === 'resource_link') as { uri: string } | undefined;
        expect(link, text(r)).toBeDefined();
        const whole = ((await s.client.readResource({ uri: link?.uri as string })).contents[0] as { text: string })
          .text;
        expect(whole).toContain('photo_');
        expect(whole).not.toMatch(/[\u202e\u001b]/);
        expect(whole).toContain('photo_\\u202egnp.exe\\x1b[2J');
      }
    } finally {
      creator.profile.full_name = original;
    }
  }, 60_000);

  it("whole results are kept in the user's cache folder (0700, files 0600), and folders of servers gone for more than a day are removed", async () => {
    const cache = tempDir('creators-mcp-cache-');
    const base = join(cache, 'creators', 'mcp-results');
    mkdirSync(join(base, '999999999-old'), { recursive: true });
    writeFileSync(join(base, '999999999-old', '001-search_creators.json'), '[]');
    const dayAndMore = (Date.now() - 25 * 3600_000) / 1000;
    utimesSync(join(base, '999999999-old'), dayAndMore, dayAndMore);
    mkdirSync(join(base, '999999998-recent'));
    // A server still running (this test's own process) keeps its folder whatever its age.
    mkdirSync(join(base, `${process.pid}-live`));
    utimesSync(join(base, `${process.pid}-live`), dayAndMore, dayAndMore);
    const s = await serve(world({ XDG_CACHE_HOME: cache }), ['--budget', '10']);
    const r = await s.call('search_creators', { platform: 'instagram', limit: 50 });
    const path = /The whole result: (\S+\.json)/.exec(text(r))?.[1] as string;
    expect(path, text(r)).toMatch(new RegExp(`^${base}/\\d+-\\w+/001-search_creators\\.json$`));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    expect(statSync(base).mode & 0o777).toBe(0o700);
    const left = readdirSync(base);
    expect(left).not.toContain('999999999-old');
    expect(left).toContain('999999998-recent');
    expect(left).toContain(`${process.pid}-live`);
  }, 60_000);

  it('batch_resume counts the rows its job has still to charge against the session budget (the CLI prices a resume at 0)', async () => {
    const cache = tempDir('creators-mcp-cache-');
    const env = world({ XDG_CACHE_HOME: cache });
    const creator = await serve(env, ['--budget', '100']);
    const made = await creator.call('batch_create', {
      values: creatorHandles(sb.get(), 10, 120),
      mode: 'raw',
      platform: 'instagram',
    });
    const id = /bch_\w+/.exec(text(made))?.[0];
    expect(id, text(made)).toBeDefined();
    // The CSV of the user's handles the job was made from is not left behind.
    const base = join(cache, 'creators', 'mcp-results');
    expect(
      readdirSync(base)
        .flatMap((session) => readdirSync(join(base, session)))
        .filter((n) => n.startsWith('input-')),
    ).toEqual([]);
    const before = sb.get().state.ledger.charges.length;
    // Another session, a small budget: the job (made elsewhere) could go on charging 10 rows, up to 2 credits each.
    const small = await serve(env, ['--budget', '1']);
    const quoted = await small.call('quote', { tool: 'batch_resume', arguments: { id } });
    expect(text(quoted)).toMatch(/^Worst case: 20 credits \(10 rows not yet processed x 2, the highest batch price\)/);
    const resumed = await small.call('batch_resume', { id });
    expect(resumed.isError, text(resumed)).toBe(true);
    expect(text(resumed)).toMatch(/^Session budget reached: this call may cost up to 20 credits/);
    expect(sb.get().state.ledger.charges.length).toBe(before);
  }, 60_000);

  it('an error that echoes text (an id, a message of the service) reaches the model with its control and bidi characters escaped', async () => {
    const s = await serve(world());
    const r = await s.call('listening_campaign_overview', { id: '9\u001b[2J\u202eX' });
    expect(r.isError, text(r)).toBe(true);
    expect(text(r)).not.toMatch(/[\u202e\u001b]/);
    expect(text(r)).toContain("Invalid campaign id '9\\x1b[2J\\u202eX'");
  }, 30_000);

  it('a refused key: the cause and its next step once, the balance unknown with its cause alone', async () => {
    const s = await serve(world({ CREATORS_API_KEY: 'sbx_live_not_a_key' }));
    const r = await s.call('credits');
    expect(r.isError, text(r)).toBe(true);
    expect(text(r)).toMatch(/^Authentication failed \(HTTP 401\)/);
    expect(text(r).split('Check the API key')).toHaveLength(2);
    expect(text(r)).toMatch(
      /Balance: unknown \(Authentication failed \(HTTP 401\): [^\n]*\)\. Session: 0 of 5 credits\.$/,
    );
    expect(text(r)).not.toContain('sbx_live_not_a_key');
  }, 30_000);

  it('a cache folder that cannot be made: the server goes on, large results in a private folder of the system temp', async () => {
    const blocked = join(tempDir('creators-mcp-cache-'), 'a-file');
    writeFileSync(blocked, '');
    const tmp = tempDir('creators-mcp-tmp-');
    const s = await serve(world({ XDG_CACHE_HOME: blocked, TMPDIR: tmp }), ['--budget', '10']);
    const r = await s.call('search_creators', { platform: 'instagram', limit: 50 });
    expect(r.isError ?? false, text(r)).toBe(false);
    const path = /The whole result: (\S+\.json)/.exec(text(r))?.[1] as string;
    expect(path, text(r)).toMatch(
      new RegExp(`^${tmp}/creators-mcp-results-\\d+/\\d+-\\w+/001-search_creators\\.json$`),
    );
    expect(statSync(join(path, '../..')).mode & 0o777).toBe(0o700);
    expect((await s.call('credits')).isError ?? false).toBe(false);
  }, 60_000);
});
