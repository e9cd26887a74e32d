// `npm run bench -- --only reuse`: the second run of the same bulk enrichment (every row from the store) against
// a plain Node script doing the same work (bench/reuse-plain.mjs: read every answer, write one JSON line each),
// side by side, on SQLite and, given CREATORS_BENCH_PG_URL or CREATORS_TEST_PG_URL, on PostgreSQL (the same
// answers copied there with `store push`). Also the store's bytes per record against its answers' JSON.
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { benchEnv, enrichArgs, bestRun, fmtMs, line, measure } from './lib.mjs';
import { csvOf, handlesOf } from './store.mjs';
import { database, dropDatabases } from './team-store.mjs';

const cpu = (r) => (r.cpuMs === undefined ? '' : `, CPU ${fmtMs(r.cpuMs)}`);

export async function benchReuse({ BIN, root, tmp, out, note, startSandbox, quick }) {
  const rows = quick ? 2_000 : 10_000;
  const rounds = quick ? 2 : 3;
  const cli = async (argv, env) => {
    const r = await measure(process.execPath, [BIN, ...argv], { env, keepStdout: false });
    if (r.code !== 0) throw new Error(`creators ${argv.slice(0, 2).join(' ')} exited ${r.code}: ${r.stderr}`);
    return r;
  };
  const sb = await startSandbox(['--rate-limit', '1000000', '--credits', '10000000']);
  const pgAdmin = process.env.CREATORS_BENCH_PG_URL || process.env.CREATORS_TEST_PG_URL;
  try {
    await fetch(`${sb.baseUrl}/_sandbox/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dailyDiscoveryLimit: 1_000_000 }),
    });
    const found = join(tmp, 'reuse-handles.jsonl');
    await cli(
      [
        'search',
        '--platform',
        'instagram',
        '--all',
        '--max-results',
        String(rows),
        '-o',
        found,
        '--quiet',
        '--no-store',
      ],
      sb.env({ CREATORS_RATE_LIMIT: '1000000' }),
    );
    const handles = handlesOf(
      (await readFile(found, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    const input = join(tmp, 'reuse.csv');
    await writeFile(input, csvOf(handles));
    const configDir = join(tmp, 'reuse-config');
    const env = (extra = {}) => sb.env({ CREATORS_CONFIG_DIR: configDir, CREATORS_RATE_LIMIT: '1000000', ...extra });
    const enrich = (extra) => cli(enrichArgs(input, join(tmp, 'reuse.jsonl'), { mode: 'full' }), env(extra));
    note(`reuse: ${rows.toLocaleString('en-US')} full records into an empty store`);
    await enrich();
    const dir = join(configDir, 'store');
    const file = join(
      dir,
      (await readdir(dir)).find((f) => f.endsWith('.db')),
    );
    let bytes = 0;
    for (const f of await readdir(dir)) bytes += (await stat(join(dir, f))).size;
    const { default: Database } = await import('libsql');
    const db = new Database(file, { readonly: true });
    const { n, json } = db.prepare('SELECT COUNT(*) AS n, SUM(length(CAST(body AS BLOB))) AS json FROM answers').get();
    db.close();
    const perRecord = bytes / n;
    const perJson = json / n;
    out(
      line(
        'store: bytes a record vs its answer JSON',
        perRecord / perJson,
        `${Math.round(perRecord).toLocaleString('en-US')} B a record for ${Math.round(perJson).toLocaleString('en-US')} B of answer JSON (${n.toLocaleString('en-US')} full records, ${(bytes / 1024 / 1024).toFixed(1)} MB)`,
        perRecord / perJson <= 1.3,
        '<= 1.3x',
      ),
    );

    const side = async (name, storeEnv, from) => {
      const mine = [];
      const plain = [];
      for (let i = 0; i < rounds; i++) {
        mine.push(await enrich(storeEnv));
        const p = await measure(
          process.execPath,
          [join(root, 'bench/reuse-plain.mjs'), from, join(tmp, 'plain.jsonl')],
          { keepStdout: false },
        );
        if (p.code !== 0) throw new Error(`reuse-plain exited ${p.code}: ${p.stderr}`);
        plain.push(p);
      }
      const a = bestRun(mine);
      const b = bestRun(plain);
      const cpuRatio = a.cpuMs !== undefined && b.cpuMs !== undefined ? `; CPU ${(a.cpuMs / b.cpuMs).toFixed(2)}x` : '';
      out(
        line(
          `reuse: ${rows.toLocaleString('en-US')} full records from the store, ${name}`,
          a.ms / b.ms,
          `wall ${fmtMs(a.ms)}${cpu(a)} vs ${fmtMs(b.ms)}${cpu(b)} for a plain Node script (read every answer, write it out), best of ${rounds}${cpuRatio}`,
          a.ms / b.ms <= 1.2,
          '<= 1.2x',
        ),
      );
    };
    await side('SQLite', {}, file);
    if (!pgAdmin) {
      out('reuse: PostgreSQL skipped (no server: set CREATORS_BENCH_PG_URL or CREATORS_TEST_PG_URL)');
    } else {
      const url = await database(pgAdmin);
      const team = { CREATORS_STORE: url };
      await cli(['store', 'migrate', '--quiet'], env(team));
      note('reuse: the same answers copied to PostgreSQL (store push)');
      await cli(['store', 'push', '--from', file, '--quiet'], env(team));
      await side('PostgreSQL', team, url);
      await dropDatabases(pgAdmin);
    }
    await rm(join(tmp, 'reuse.jsonl'), { force: true });
    await rm(join(tmp, 'plain.jsonl'), { force: true });
  } finally {
    await sb.stop();
  }
}
