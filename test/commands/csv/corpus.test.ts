import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { batchWorld } from '../../../src/sandbox/batch/jobs.js';

/**
 * The corpus in test/fixtures/csv/ (made by its make.mjs: byte order marks, UTF-16LE/BE, semicolon, tab,
 * pipe, quoted line breaks, mixed line ends, spreadsheet exports; and files every path must refuse) through
 * every input path: enrich --input (file and stdin), batch upload, exclusions add|remove --file,
 * search --exclude-handles and listening --file. All of them must read the same rows, or refuse the same line with nothing sent.
 */
// batch upload goes to the sandbox, which keeps the values of each uploaded file.
const sb = useSandbox({ credits: 10_000 });
const batchJobs = () => batchWorld(sb.get().state).jobs;

const CORPUS = fileURLToPath(new URL('../../fixtures/csv/', import.meta.url));
const fixture = (name: string): string => join(CORPUS, name);

const HANDLES = ['noah_paws', 'ella_strong', 'zoe_art'];
const NAMES = ['Noah Torres', 'Ella Strong', 'Zoë Ärt'];

/** Each readable file and the names its rows carry (the handles are always HANDLES). */
const READABLE: Record<string, string[]> = {
  'utf8-bom.csv': NAMES,
  'utf16le-unicode-text.txt': NAMES,
  'utf16be.csv': NAMES,
  'semicolon-excel-eu.csv': ['Torres; Noah', 'Ella Strong', 'Zoë Ärt'],
  'tab.tsv': NAMES,
  'pipe.csv': NAMES,
  'quoted-newlines.csv': ['Noah\nTorres', 'Ella "E"\r\nStrong', 'Zoë Ärt'],
  'mixed-line-ends.csv': NAMES,
  'excel-utf8-export.csv': ['Torres, Noah', 'Ella "E" Strong', 'Zoë Ärt'],
  'google-sheets-export.csv': NAMES,
};

/** Each file every path refuses, and what the message must say (the line it names). */
const REFUSED: Record<string, RegExp> = {
  'ragged-wider.csv': /line 2 has 3 values where the header has 2/,
  'ragged-narrower.csv': /line 3 has 2 values where the header has 3/,
  'nul.csv': /holds a NUL byte.*\(line 3, byte \d+\)/,
  'latin1.csv': /is not valid UTF-8 \(line 3, byte 36\)/,
  'unclosed-quote.csv': /a quote is never closed/,
};

/** A fake API recording the handles enrich sends; any other request fails the run (nothing else may be sent). */
function recordingApi() {
  const api = mockApi({ recorder: true });
  const enriched: string[] = [];
  api.pool
    .intercept({ path: '/public/v1/creators/enrich/handle/raw/', method: 'POST' })
    .reply((opts) => {
      const { handle } = JSON.parse(String(opts.body)) as { handle: string };
      enriched.push(handle);
      return {
        statusCode: 200,
        data: { result: { instagram: { username: handle } }, credits_cost: 0.03 },
        responseOptions: JSON_HEADERS,
      };
    })
    .persist();
  return { ...api, enriched };
}

type Plan = { body: Record<string, unknown> };

/** Every path over one file: what each read (handles, and the enrich rows' names). */
async function readByEveryPath(name: string) {
  const api = recordingApi();
  const run = (argv: string[], stdin?: Buffer) =>
    runCli(argv, { env: api.env, dispatcher: api.agent, ...(stdin ? { stdin } : {}) });
  const path = fixture(name);
  const enrich = await run([
    'enrich',
    'handle',
    '--platform',
    'instagram',
    '--mode',
    'raw',
    '--input',
    path,
    '--format',
    'jsonl',
  ]);
  const enrichedFromFile = api.enriched.splice(0);
  const stdin = await run(
    ['enrich', 'handle', '--platform', 'instagram', '--mode', 'raw', '--input', '-', '--format', 'jsonl'],
    readFileSync(path),
  );
  const enrichedFromStdin = api.enriched.splice(0);
  const before = batchJobs().size;
  const batch = await runCli(['batch', 'upload', path, '--mode', 'raw', '--platform', 'instagram'], {
    env: sandboxEnv(sb.get()),
  });
  const uploaded = batchJobs().size === before ? undefined : batchJobs().get(batch.stdout.trim())?.values;
  const add = await run(['exclusions', 'add', '12', '--file', path, '--dry-run', '--json']);
  const remove = await run(['exclusions', 'remove', '12', '--file', path, '--dry-run', '--json']);
  const search = await run(['search', '--platform', 'instagram', '--exclude-handles', path, '--dry-run', '--json']);
  const listen = await run([
    'listening',
    'subscriptions',
    'create',
    '--name',
    'corpus',
    '--platform',
    'instagram',
    '--file',
    path,
    '--dry-run',
    '--json',
  ]);
  return { api, enrich, enrichedFromFile, stdin, enrichedFromStdin, batch, uploaded, add, remove, search, listen };
}

describe('the CSV corpus through every input path', () => {
  it.each(Object.entries(READABLE))('%s: every path reads the same rows', async (name, names) => {
    const r = await readByEveryPath(name);
    for (const [what, res] of Object.entries({
      enrich: r.enrich,
      stdin: r.stdin,
      batch: r.batch,
      add: r.add,
      remove: r.remove,
      search: r.search,
      listen: r.listen,
    })) {
      expect(res.code, `${what}: ${res.stderr}`).toBe(0);
    }
    // enrich --input, from the file and from stdin: the handles sent, and every row's input columns kept.
    expect(r.enrichedFromFile).toEqual(HANDLES);
    expect(r.enrichedFromStdin).toEqual(HANDLES);
    for (const res of [r.enrich, r.stdin]) {
      const rows = res.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { input: Record<string, unknown> });
      expect(rows.map((row) => Object.values(row.input).slice(0, 2))).toEqual(names.map((n, i) => [n, HANDLES[i]]));
    }
    // batch upload: the file it uploaded holds the same handles.
    expect(r.uploaded).toEqual(HANDLES);
    // Handle lists: the handle column of the same rows.
    expect(r.add.json<Plan>().body.handles).toEqual(HANDLES);
    expect(r.remove.json<Plan>().body.handles).toEqual(HANDLES);
    expect(JSON.stringify(r.search.json<Plan>().body)).toContain(`"exclude_handles":${JSON.stringify(HANDLES)}`);
    expect((r.listen.json<Plan>().body.creators as Array<{ platform_id: string }>).map((c) => c.platform_id)).toEqual(
      HANDLES,
    );
  });

  it.each(Object.entries(REFUSED))(
    '%s: every path refuses it naming the line, nothing sent for a file',
    async (name, message) => {
      const r = await readByEveryPath(name);
      for (const [what, res] of Object.entries({
        enrich: r.enrich,
        stdin: r.stdin,
        batch: r.batch,
        add: r.add,
        remove: r.remove,
        search: r.search,
        listen: r.listen,
      })) {
        expect(res.code, `${what}: ${res.stderr}`).toBe(2);
        expect(res.stderr, what).toMatch(message);
      }
      expect(r.enrichedFromFile).toEqual([]);
      expect(r.uploaded).toBeUndefined();
      // Standard input is streamed: the rows before the bad line may be sent, never one after it.
      expect(HANDLES.slice(0, r.enrichedFromStdin.length)).toEqual(r.enrichedFromStdin);
      expect(r.enrichedFromStdin.length).toBeLessThan(2);
    },
  );
});
