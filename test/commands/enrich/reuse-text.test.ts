/**
 * A bulk run answered from the store writes each stored result as its stored text (not parsed and written again):
 * the bytes are those of the run that bought it, in every format; `--fields` still picks; exact numbers stay exact;
 * a stored text spelt otherwise (edited by hand) is parsed and written as before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { creatorHandles, sandboxEnv, useSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';
import { csvObjects } from './helpers.js';

const sb = useSandbox({ seed: 73, credits: 10_000 });

/** The text of a JSONL line's `result`, as written (the line is `{"input":…,"result":…,"credits_cost":…}`). */
function resultText(line: string): string {
  const from = line.indexOf('"result":') + '"result":'.length;
  const to = line.lastIndexOf(',"credits_cost":');
  return line.slice(from, to);
}

async function world(n: number, from: number) {
  const dir = tempDir('creators-reuse-text-');
  const configDir = tempDir('creators-reuse-text-config-');
  const handles = creatorHandles(sb.get(), n, from);
  const input = join(dir, 'in.csv');
  writeFileSync(input, `handle,note\n${handles.map((h, i) => `${h},row ${i}`).join('\n')}\n`);
  const run = async (out: string, more: string[] = []) => {
    const res = await runCli(
      [
        'enrich',
        'handle',
        '--platform',
        'instagram',
        '--mode',
        'full',
        '--input',
        input,
        '-o',
        join(dir, out),
        ...more,
      ],
      { env: sandboxEnv(sb.get()), configDir },
    );
    expect(res.code, res.stderr).toBe(0);
    return readFileSync(join(dir, out), 'utf8');
  };
  const setBody = async (handle: string, body: string): Promise<void> => {
    const { default: Database } = (await import('libsql')) as unknown as {
      default: new (
        f: string,
      ) => { prepare(sql: string): { run(...a: unknown[]): { changes: number } }; close(): void };
    };
    const db = new Database(join(configDir, 'store', 'default.db'));
    expect(db.prepare('UPDATE answers SET body = ? WHERE subject = ?').run(body, handle).changes).toBe(1);
    db.close();
  };
  return { handles, run, setBody };
}

describe('a bulk run answered from the store', () => {
  it('writes the bytes the buying run wrote, in JSONL, JSON and CSV; only credits_cost and source differ', async () => {
    const w = await world(6, 0);
    const bought = await w.run('bought.jsonl');
    const charges = sb.get().state.ledger.charges.length;
    const reused = await w.run('reused.jsonl');
    expect(sb.get().state.ledger.charges).toHaveLength(charges);
    const a = bought.trimEnd().split('\n');
    const b = reused.trimEnd().split('\n');
    expect(b).toHaveLength(6);
    for (let i = 0; i < a.length; i++) {
      expect(resultText(b[i] as string).length).toBeGreaterThan(500);
      expect(resultText(b[i] as string)).toBe(resultText(a[i] as string));
      expect(b[i]).toBe(
        (a[i] as string).replace(
          /,"credits_cost":[^,]+,"status":"ok","error":null,"source":"api"\}$/,
          ',"credits_cost":0,"status":"ok","error":null,"source":"store"}',
        ),
      );
    }

    // Indented JSON: the same document but for the two fields.
    const boughtJson = JSON.parse(await w.run('bought.json', ['--max-age', '0'])) as Record<string, unknown>[];
    const reusedJson = await w.run('reused.json');
    const strip = (rows: Record<string, unknown>[]) => rows.map(({ credits_cost: _c, source: _s, ...rest }) => rest);
    expect(strip(JSON.parse(reusedJson) as Record<string, unknown>[])).toEqual(strip(boughtJson));
    expect(reusedJson.startsWith('[\n  {\n    "input": {\n      "handle": ')).toBe(true);

    const boughtCsv = csvObjects(await w.run('bought.csv', ['--max-age', '0']));
    const reusedCsv = csvObjects(await w.run('reused.csv'));
    expect(reusedCsv.map((r) => r.source)).toEqual(w.handles.map(() => 'store'));
    const columns = (rows: Record<string, string>[]) => rows.map(({ credits_cost: _c, source: _s, ...rest }) => rest);
    expect(columns(reusedCsv)).toEqual(columns(boughtCsv));
    expect(reusedCsv[0]?.result_json).toBe(resultText(b[0] as string));
  });

  it('--fields still picks from a stored result', async () => {
    const w = await world(3, 10);
    await w.run('bought.jsonl');
    const picked = await w.run('picked.jsonl', ['--fields', 'input.handle,result.instagram.username,source']);
    expect(
      picked
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(
      w.handles.map((h) => ({ input: { handle: h }, result: { instagram: { username: h } }, source: 'store' })),
    );
  });

  it('keeps exact numbers exact, and writes a text spelt otherwise as it is parsed and written again', async () => {
    const w = await world(3, 20);
    await w.run('bought.jsonl');
    const [exact, spaced, empty] = w.handles as [string, string, string];
    await w.setBody(
      exact,
      `{"result":{"instagram":{"username":"${exact}","userid":6789012345678901234,"reach":1e400,"ratio":0.1}},"credits_cost":1}`,
    );
    await w.setBody(
      spaced,
      `{"result": {"instagram": {"username": "${spaced}", "ratio": 1.50, "id": 6789012345678901234}}}`,
    );
    await w.setBody(empty, '{"result":{},"credits_cost":0}');
    const lines = (await w.run('reused.jsonl')).trimEnd().split('\n');
    expect(resultText(lines[0] as string)).toBe(
      `{"instagram":{"username":"${exact}","userid":6789012345678901234,"reach":1e400,"ratio":0.1}}`,
    );
    expect(resultText(lines[1] as string)).toBe(
      `{"instagram":{"username":"${spaced}","ratio":1.5,"id":6789012345678901234}}`,
    );
    expect(JSON.parse(lines[2] as string)).toMatchObject({ result: null, status: 'not_found', source: 'store' });
    const csv = csvObjects(await w.run('reused.csv'));
    expect(csv[0]?.['result.instagram.userid']).toBe('6789012345678901234');
    expect(csv[0]?.result_json).toBe(resultText(lines[0] as string));
    expect(csv[1]?.result_json).toBe(resultText(lines[1] as string));
  });
});
