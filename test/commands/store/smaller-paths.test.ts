import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.js';
import { ledgerMark } from '../../reliability/helpers.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * The purchase memory's smaller paths, against the sandbox and a real SQLite store: a free not-found is
 * remembered for its run only; one overlap pair is one purchase whatever the order or spelling; a damaged
 * stored answer is named with what to run and bought again only with the user's consent.
 */

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function world() {
  const posts: string[] = [];
  const sandbox = await startSandbox({
    port: 0,
    seed: 35,
    log: (line) => (line.startsWith('POST ') ? posts.push(line.split(' ')[1] ?? '') : undefined),
  });
  open.push(sandbox);
  const configDir = tempConfigDir();
  const run = (argv: string[]) => runCli(argv, { env: sandboxEnv(sandbox), configDir });
  /** POSTs to a route since the mark. */
  const sent = (route: string) => {
    const from = posts.length;
    return () => posts.slice(from).filter((p) => p.includes(route)).length;
  };
  return { sandbox, configDir, run, sent, mark: () => ledgerMark(sandbox) };
}

const ENRICH = '/creators/enrich/handle/raw/';

describe('a free not-found', () => {
  it('is reused within its run, and asked again by the next run (never hidden for 14 days)', async () => {
    const w = await world();
    const found = creatorHandles(w.sandbox, 1)[0]!;
    const input = join(tempDir('creators-notfound-'), 'in.csv');
    // The same missing creator twice (spelt two ways) and one that exists.
    writeFileSync(input, `handle\nmissing_x\n@Missing_X\n${found}\n`);
    const argv = [
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--input',
      input,
      '--format',
      'jsonl',
      '--concurrency',
      '1',
    ];
    const first = w.sent(ENRICH);
    const a = await w.run(argv);
    expect(a.code, a.stderr).toBe(0);
    // Asked once in the run: the second row is the first's answer.
    expect(first()).toBe(2);
    const rows = a.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; source: string });
    expect(rows.map((r) => r.status)).toEqual(['not_found', 'not_found', 'ok']);

    const second = w.sent(ENRICH);
    const charged = w.mark();
    const b = await w.run(argv);
    expect(b.code, b.stderr).toBe(0);
    // The next run asks the service again about the missing one (free), once; the paid one comes from the store.
    expect(second()).toBe(1);
    expect(charged.since().count).toBe(0);
    expect(
      b.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { source: string }).source),
    ).toEqual(['api', 'store', 'store']);
    // Counted before the run: only the paid one.
    expect(b.stderr).toContain('1 of 3 rows from the store');

    // One creator, alone: asked again too; a dry run prices it (the store would not answer it).
    const one = w.sent(ENRICH);
    const c = await w.run(['enrich', 'handle', 'missing_x', '--platform', 'instagram', '--mode', 'raw', '--json']);
    expect(c.code, c.stderr).toBe(0);
    expect(one()).toBe(1);
    const dry = await w.run([
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--input',
      input,
      '--dry-run',
      '--json',
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json<{ worst_case_credits: number }>().worst_case_credits).toBe(0.06);
  });
});

describe('overlap: one pair, one purchase', () => {
  it('in four orders and spellings (a b, b a, @A b, a URL) is bought once, and printed in the order given', async () => {
    const w = await world();
    const [a, b] = creatorHandles(w.sandbox, 2, 3);
    const charged = w.mark();
    const sent = w.sent('/creators/audience/overlap/');
    const spellings = [
      [a!, b!],
      [b!, a!],
      [`@${a!.toUpperCase()}`, b!],
      [`https://www.instagram.com/${b!}/`, a!],
    ];
    const outputs: { details: { username: string; unique_percentage: number }[] }[] = [];
    for (const pair of spellings) {
      const res = await w.run(['overlap', ...pair, '--platform', 'instagram', '--json']);
      expect(res.code, res.stderr).toBe(0);
      outputs.push(res.json());
    }
    expect(charged.since()).toMatchObject({ count: 1, milli: 1000 });
    expect(sent()).toBe(1);
    // Each run lists the creators in its own order, with the same figures for each.
    expect(outputs.map((o) => o.details.map((d) => d.username))).toEqual([
      [a, b],
      [b, a],
      [a, b],
      [b, a],
    ]);
    const figures = (o: (typeof outputs)[number]) =>
      Object.fromEntries(o.details.map((d) => [d.username, d.unique_percentage]));
    for (const o of outputs) expect(figures(o)).toEqual(figures(outputs[0]!));
    // The same creator twice, as a handle and as its URL, is refused before anything is sent.
    const twice = await w.run(['overlap', a!, `https://instagram.com/${a!}`, '--platform', 'instagram']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('is given twice');
  });
});

describe('a damaged stored answer', () => {
  async function damage(configDir: string, body: string): Promise<void> {
    const { default: Database } = (await import('libsql')) as unknown as {
      default: new (f: string) => { prepare(sql: string): { run(...a: unknown[]): void }; close(): void };
    };
    const db = new Database(join(configDir, 'store', 'default.db'));
    db.prepare('UPDATE answers SET body = ?').run(body);
    db.close();
  }

  it('is named (key, creator, what to run), exit 1 without a stack, not bought again; --max-age 0 buys it', async () => {
    const w = await world();
    const handle = creatorHandles(w.sandbox, 1, 5)[0]!;
    const argv = ['enrich', 'handle', handle, '--platform', 'instagram', '--mode', 'raw'];
    expect((await w.run([...argv, '--json'])).code).toBe(0);
    await damage(w.configDir, '{"result": {"instagram": ');

    const charged = w.mark();
    const text = await w.run(argv);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    const lines = text.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: The store's answer for instagram:${handle} \\(key [0-9a-f]{12}, bought [^)]+\\) is damaged: not valid JSON; nothing was bought\\. To buy it again, run \`creators store forget instagram:${handle}\`, or the command with --max-age 0\\.$`,
        ),
      ),
    ]);
    expect(text.stderr).not.toContain('Unexpected error');
    expect(text.stderr).not.toMatch(/\n\s+at /);
    const json = await w.run([...argv, '--json']);
    expect(json.code).toBe(1);
    expect(json.errorJson().error.code).toBe('stored_answer_damaged');
    // A dry run names it too, before anything is priced.
    const dry = await w.run([...argv, '--dry-run']);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain('is damaged: not valid JSON');
    expect(charged.since().count).toBe(0);

    const fresh = await w.run([...argv, '--max-age', '0', '--json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(charged.since()).toMatchObject({ count: 1, milli: 30 });
    // Kept again: the next run reuses it.
    expect((await w.run([...argv, '--json'])).code).toBe(0);
    expect(charged.since().count).toBe(1);
  });

  it('a bulk run: the damaged row says so (exit 3), the others are written, nothing is bought for it', async () => {
    const w = await world();
    const handles = creatorHandles(w.sandbox, 2, 7);
    const input = join(tempDir('creators-damaged-'), 'in.csv');
    writeFileSync(input, `handle\n${handles[0]}\n`);
    const argv = [
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--input',
      input,
      '--format',
      'jsonl',
    ];
    expect((await w.run(argv)).code).toBe(0);
    await damage(w.configDir, '[1, 2');
    writeFileSync(input, `handle\n${handles[0]}\n${handles[1]}\n`);
    const charged = w.mark();
    const res = await w.run(argv);
    expect(res.code).toBe(3);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; error: string | null });
    expect(rows.map((r) => r.status)).toEqual(['error', 'ok']);
    expect(rows[0]!.error).toMatch(
      new RegExp(
        `^The store's answer for instagram:${handles[0]} \\(key [0-9a-f]{12}, .*\\) is damaged: not valid JSON`,
      ),
    );
    expect(charged.since()).toMatchObject({ count: 1, milli: 30 });
  });

  it('an overlap answer (no single creator): named by route and platform, --max-age 0 to buy it again', async () => {
    const w = await world();
    const [a, b] = creatorHandles(w.sandbox, 2, 9);
    const argv = ['overlap', a!, b!, '--platform', 'instagram', '--json'];
    expect((await w.run(argv)).code).toBe(0);
    await damage(w.configDir, '{"details": "nothing"}');
    const charged = w.mark();
    const res = await w.run(argv);
    expect(res.code).toBe(1);
    expect(res.errorJson().error.message).toMatch(
      /^The store's answer for creators\/audience\/overlap \(instagram\) \(key [0-9a-f]{12}, bought [^)]+\) is damaged: not the endpoint's shape \(.+\); nothing was bought\. To buy it again, run the command with --max-age 0\.$/,
    );
    expect(charged.since().count).toBe(0);
  });
});
