// The baseline of the reuse figure: a plain Node script doing the same work as a run answered from the store,
// without the CLI: read every answer of the store (SQLite through libsql, or PostgreSQL through pg), parse it
// and write one line of it out. `node bench/reuse-plain.mjs <store.db | postgres://...> <out>`.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const [from, target] = process.argv.slice(2);
const out = createWriteStream(target, { highWaterMark: 256 * 1024 });
const write = async (line) => {
  if (!out.write(line)) await once(out, 'drain');
};
if (/^postgres(ql)?:/.test(from)) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: from });
  await client.connect();
  // Slices of 1,000 by key, as a careful script would (not the whole table in memory at once).
  let after = '';
  for (;;) {
    const { rows } = await client.query('SELECT key, body FROM answers WHERE key > $1 ORDER BY key LIMIT 1000', [
      after,
    ]);
    for (const r of rows) await write(`${JSON.stringify(JSON.parse(r.body))}\n`);
    if (rows.length < 1000) break;
    after = rows[rows.length - 1].key;
  }
  await client.end();
} else {
  const { default: Database } = await import('libsql');
  const db = new Database(from, { readonly: true });
  for (const r of db.prepare('SELECT body FROM answers').iterate())
    await write(`${JSON.stringify(JSON.parse(r.body))}\n`);
  db.close();
}
out.end();
await once(out, 'finish');
