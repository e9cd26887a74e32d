import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchWorld } from '../../../src/sandbox/batch/jobs.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * Every command that takes a file of creators reads it with the one CSV reader and its one header rule: the
 * CLI's own CSV output gives its handle column, a `handle` header is a header, and a header-less list of one
 * handle a line loses no row (its first line is data). The sandbox's ledger says what was charged.
 */
const sandbox = useSandbox({ seed: 38, credits: 100_000 });

function world() {
  const sb = sandbox.get();
  const env = sandboxEnv(sb);
  const configDir = tempConfigDir();
  const cwd = tempDir('creators-files-');
  const run = (argv: string[], stdin?: string) =>
    runCli(argv, { env, configDir, cwd, ...(stdin === undefined ? {} : { stdin }) });
  const from = sb.state.ledger.charges.length;
  const charges = () => sb.state.ledger.charges.slice(from);
  return { sb, cwd, run, charges, file: (name: string, text: string) => writeFileSync(join(cwd, name), text) };
}

/** The creators a dry run's body would send. */
const sent = (plan: { json<T>(): T }): string[] =>
  (plan.json<{ body: { creators?: Array<{ platform_id: string }> } }>().body.creators ?? []).map((c) => c.platform_id);

describe('a file of creators, read alike by every command', () => {
  it("listening subscriptions create --file: the CLI's own similar CSV is its handles, charged once each", async () => {
    const w = world();
    const [ref] = creatorHandles(w.sb, 1, 3);
    const similar = await w.run(['similar', ref!, '--platform', 'instagram', '--limit', '5', '--format', 'csv']);
    expect(similar.code, similar.stderr).toBe(0);
    w.file('sim.csv', similar.stdout);
    const handles = similar.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[1]!);
    expect(handles).toHaveLength(5);

    const create = [
      'listening',
      'subscriptions',
      'create',
      '--name',
      'sim',
      '--platform',
      'instagram',
      '--file',
      'sim.csv',
      '--json',
    ];
    const plan = await w.run([...create, '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(sent(plan)).toEqual(handles);
    const before = w.charges().length;
    const made = await w.run(create);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json<{ creators_count: number }>().creators_count).toBe(5);
    const monitoring = w.charges().slice(before);
    expect(monitoring.map((c) => c.milli)).toEqual([5 * 300]);
    expect(monitoring[0]!.note).toContain('5 creator(s)');

    // exclusions add reads the same file to the same handles.
    const added = await w.run(['exclusions', 'add', 'default:instagram', '--file', 'sim.csv']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain('Added 5 handles');
  });

  it('listening add-creators --file: a `handle` header is a header, not a monitored creator', async () => {
    const w = world();
    const [a, b, c] = creatorHandles(w.sb, 3, 10);
    const made = await w.run([
      'listening',
      'campaigns',
      'create',
      '--name',
      'hdr',
      '--days',
      '2',
      '--platform',
      'instagram',
      a!,
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const id = String(made.json<{ id: number }>().id);
    w.file('more.csv', `handle\n${b}\n${c}\n`);
    const before = w.charges().length;
    const added = await w.run([
      'listening',
      'campaigns',
      'add-creators',
      id,
      '--platform',
      'instagram',
      '--file',
      'more.csv',
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(
      w
        .charges()
        .slice(before)
        .map((x) => x.milli),
    ).toEqual([2 * 300]);

    // The CLI's own listening CSV (platform, platform_id) is a file of creators too, each on its own platform.
    const listed = await w.run(['listening', 'campaigns', 'creators', id, '--format', 'csv']);
    expect(listed.code, listed.stderr).toBe(0);
    w.file('watched.csv', listed.stdout);
    const plan = await w.run([
      'listening',
      'subscriptions',
      'create',
      '--name',
      'again',
      '--file',
      'watched.csv',
      '--dry-run',
      '--json',
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.json<{ body: { creators: unknown[] } }>().body.creators).toEqual(
      [a, b, c].map((h) => ({ platform: 'instagram', platform_id: h })),
    );
  });

  it('a header-less list of one handle a line: no command loses its first line', async () => {
    const w = world();
    const handles = creatorHandles(w.sb, 3, 20);
    const list = `${handles.join('\n')}\n`;
    w.file('list.txt', list);

    // enrich handle: three rows, three charges, no warning.
    const enriched = await w.run([
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--input',
      'list.txt',
      '--format',
      'jsonl',
    ]);
    expect(enriched.code, enriched.stderr).toBe(0);
    expect(enriched.stderr).not.toContain('warning');
    expect(enriched.stdout.trim().split('\n')).toHaveLength(3);
    expect(
      w
        .charges()
        .map((c) => c.note)
        .sort(),
    ).toEqual(handles.map((h) => `raw instagram:${h}`).sort());

    // The same from stdin.
    const piped = await w.run(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'raw',
        '--input',
        '-',
        '--format',
        'jsonl',
        '--dry-run',
      ],
      list,
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).not.toContain('warning');

    // socials: a row a handle.
    const socials = await w.run(['socials', '--platform', 'instagram', '--input', 'list.txt', '--format', 'jsonl']);
    expect(socials.code, socials.stderr).toBe(0);
    expect(socials.stderr).not.toContain('warning');
    expect(socials.stdout.trim().split('\n')).toHaveLength(3);

    // batch upload: the job holds all three.
    const up = await w.run(['batch', 'upload', 'list.txt', '--mode', 'raw', '--platform', 'instagram']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).not.toContain('warning');
    expect(batchWorld(w.sb.state).jobs.get(up.stdout.trim())?.values).toEqual(handles);

    // search --exclude-handles and exclusions, as they did.
    const plan = await w.run([
      'search',
      '--platform',
      'instagram',
      '--exclude-handles',
      'list.txt',
      '--dry-run',
      '--json',
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.json<{ body: { filters: { exclude_handles: string[] } } }>().body.filters.exclude_handles).toEqual(
      handles,
    );

    // listening: three monitored creators.
    const made = await w.run([
      'listening',
      'subscriptions',
      'create',
      '--name',
      'list',
      '--platform',
      'instagram',
      '--file',
      'list.txt',
      '--json',
      '--dry-run',
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(sent(made)).toEqual(handles);
  });

  it('a header-less list whose first line looks like nothing the command takes is read as a header, and says so', async () => {
    const w = world();
    w.file('named.csv', 'Creator Name\nnoah_paws\n');
    const res = await w.run([
      'enrich',
      'handle',
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--input',
      'named.csv',
      '--dry-run',
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain("No handle column recognised in named.csv: using the first column, 'Creator Name'.");

    // In a list of emails a lone word is its header; an address on the first line is data.
    w.file('emails.txt', 'contacts\nann@example.com\n');
    w.file('bare.txt', 'ann@example.com\nbob@example.org\n');
    for (const [name, rows] of [
      ['emails.txt', 1],
      ['bare.txt', 2],
    ] as const) {
      const mail = await w.run(['enrich', 'email', '--input', name, '--format', 'jsonl']);
      expect(mail.code, mail.stderr).toBe(0);
      expect(mail.stdout.trim().split('\n'), name).toHaveLength(rows);
    }
  });
});
