import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp.js';

type Plan = { method: string; url: string; body: Record<string, unknown> };

/** Files as people make them, through the commands: what would be sent (--dry-run), or refused with nothing sent. */
describe('user files through every input path', () => {
  const file = (name: string, content: string | Buffer) => {
    const path = join(tempDir(), name);
    writeFileSync(path, content);
    return path;
  };
  // MockAgent with no interceptors: any request fails the run with a network error, so exit 2 proves nothing was sent.
  const offline = () => mockApi().env;
  const dispatcher = () => mockApi().agent;

  it('a row wider than its header is refused with its line (it used to send " Noah"), unless --relax-columns', async () => {
    const ragged = file('ragged.csv', 'name,handle\nTorres, Noah,noah_paws\n');
    const { agent, env } = mockApi();
    const res = await runCli(['enrich', 'handle', '--platform', 'instagram', '--input', ragged], {
      env,
      dispatcher: agent,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'line 2 has 3 values where the header has 2 (comma-separated); quote values that hold a comma, or pass --relax-columns to pad or cut rows to the header.\n',
    );
    const relaxed = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--input', ragged, '--relax-columns', '--dry-run', '--json'],
      { env, dispatcher: agent },
    );
    expect(relaxed.code).toBe(0);
    expect(relaxed.json<Plan>().body.handle).toBe('Noah');
  });

  it('a semicolon file is read as one (said in a notice), for enrich, exclusions and search alike', async () => {
    const semi = file('semi.csv', 'name;handle\nNoah;noah_paws\n"Ann; B";ann_b\n');
    const env = offline();
    const enrich = await runCli(
      ['enrich', 'handle', '--platform', 'instagram', '--input', semi, '--dry-run', '--json'],
      { env, dispatcher: dispatcher() },
    );
    expect(enrich.code).toBe(0);
    expect(enrich.json<Plan>().body.handle).toBe('noah_paws');
    const said = 'as semicolon-separated (from its header line; --delimiter to choose another).\n';
    expect(enrich.stderr).toContain(said);
    const add = await runCli(['exclusions', 'add', '12', '--file', semi, '--dry-run', '--json'], {
      env,
      dispatcher: dispatcher(),
    });
    expect(add.code).toBe(0);
    expect(add.json<Plan>().body).toMatchObject({ handles: ['noah_paws', 'ann_b'] });
    expect(add.stderr).toContain(said);
    const search = await runCli(
      ['search', '--platform', 'instagram', '--exclude-handles', semi, '--dry-run', '--json'],
      { env, dispatcher: dispatcher() },
    );
    expect(search.code).toBe(0);
    expect(JSON.stringify(search.json<Plan>().body)).toContain('"exclude_handles":["noah_paws","ann_b"]');
    expect(search.stderr).toContain(said);
    // A verb without --delimiter is not told to use it.
    const listening = await runCli(
      ['listening', 'subscriptions', 'add-creators', '5', '--file', semi, '--platform', 'instagram', '--dry-run'],
      { env, dispatcher: dispatcher() },
    );
    expect(listening.code, listening.stderr).toBe(0);
    expect(listening.stderr).toContain('as semicolon-separated (from its header line).\n');
    expect(listening.stderr).not.toContain('--delimiter');
  });

  it('a column of emails where handles are wanted: the verbs that pick a column say how; a list file is not told to', async () => {
    const emails = file('emails.csv', 'email\na@b.co\n');
    const env = offline();
    const enrich = await runCli(['enrich', 'handle', '--platform', 'instagram', '--input', emails, '--dry-run'], {
      env,
      dispatcher: dispatcher(),
    });
    expect(enrich.code).toBe(2);
    expect(enrich.stderr).toBe(
      "error: Column 'email' holds email addresses, but this mode enriches handles.\nUse a column of handles (--column), or enrich by email (enrich email, batch --mode basic|advanced).\n",
    );
    const batch = await runCli(['batch', 'upload', emails, '--mode', 'raw', '--platform', 'instagram', '--dry-run'], {
      env,
      dispatcher: dispatcher(),
    });
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain(
      'Use a column of handles (--column), or enrich by email (enrich email, batch --mode basic|advanced).\n',
    );
    const none = await runCli(['enrich', 'email', '--input', file('who.csv', 'who\nnasa\n'), '--dry-run'], {
      env,
      dispatcher: dispatcher(),
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('error: No email column found in the input.\nName it with --column.\n');
    // `exclusions add --file` has no --column (and enriches nothing).
    const add = await runCli(['exclusions', 'add', '12', '--file', emails, '--dry-run'], {
      env,
      dispatcher: dispatcher(),
    });
    expect(add.code).toBe(2);
    expect(add.stderr).toBe(
      "error: Column 'email' holds email addresses, but this mode enriches handles.\nUse a column of handles.\n",
    );
  });

  it('handle lists: lone CR line ends, quotes removed, # comments and blanks skipped; binary refused', async () => {
    const list = file('list.txt', 'ann\r"bob"\r# seen already\r\r@cy\r');
    const env = offline();
    const add = await runCli(['exclusions', 'add', '12', '--file', list, '--dry-run', '--json'], {
      env,
      dispatcher: dispatcher(),
    });
    expect(add.code).toBe(0);
    expect(add.json<Plan>().body).toMatchObject({ handles: ['ann', 'bob', '@cy'] });
    const binary = file(
      'binary.bin',
      Buffer.from([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe, 0x00,
      ]),
    );
    const refused = await runCli(['exclusions', 'add', '12', '--file', binary], { env, dispatcher: dispatcher() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not valid UTF-8 \(line 1, byte 0\)/);
    const nul = file('nul.txt', 'ann\nb\0b\n');
    const nulRes = await runCli(['search', '--platform', 'instagram', '--exclude-handles', nul, '--dry-run'], {
      env,
      dispatcher: dispatcher(),
    });
    expect(nulRes.code).toBe(2);
    expect(nulRes.stderr).toMatch(/holds a NUL byte.*\(line 2, byte 5\)/);
  });

  it('a plain TSV export (Miller --otsv) with a quote in a value is read as plain TSV, said on stderr', async () => {
    const tsv = file('export.tsv', 'handle\tbio\nnoah_paws\tSays "woof" daily\n');
    const res = await runCli(['enrich', 'handle', '--platform', 'instagram', '--input', tsv, '--dry-run', '--json'], {
      env: offline(),
      dispatcher: dispatcher(),
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.json<Plan>().body.handle).toBe('noah_paws');
    expect(res.stderr).toContain(
      'as plain tab-separated values: its quotes are not CSV quotes and are kept in the values',
    );
    expect(res.stderr).not.toContain('not valid CSV');
  });

  it('UTF-16 files (the "Unicode text" export) are decoded, tab-separated', async () => {
    const utf16 = file(
      'unicode.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Name\tEmail\r\nNoé\tnoe@example.com\r\n', 'utf16le')]),
    );
    const res = await runCli(['enrich', 'email', '--input', utf16, '--dry-run', '--json'], {
      env: offline(),
      dispatcher: dispatcher(),
    });
    expect(res.code).toBe(0);
    expect(res.json<Plan>().body.email).toBe('noe@example.com');
  });

  it('the email check refuses carla;carladiy.collabs@example.com (a semicolon file read with --delimiter ,)', async () => {
    const arg = await runCli(['enrich', 'email', 'carla;carladiy.collabs@example.com', '--dry-run'], {
      env: offline(),
      dispatcher: dispatcher(),
    });
    expect(arg.code).toBe(2);
    expect(arg.stderr).toContain("Invalid email address 'carla;carladiy.collabs@example.com'");
    const semi = file('people.csv', 'name;email\ncarla;carladiy.collabs@example.com\n');
    const forced = await runCli(['enrich', 'email', '--input', semi, '--delimiter', ',', '--column', 'name;email'], {
      env: offline(),
      dispatcher: dispatcher(),
    });
    expect(forced.code).toBe(3);
    expect(forced.stdout).toContain('Invalid email address');
  });
});
