import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { addApiKey } from '../../src/sandbox/state.js';
import { batchWorld, configureBatch } from '../../src/sandbox/batch/jobs.js';
import { sandboxFinds } from '../../src/sandbox/batch/results.js';
import { testClock } from '../commands/batch/helpers.js';

/** The control surface takes JSON only. */
const JSON_BODY = { 'content-type': 'application/json' };

type Sb = Awaited<ReturnType<typeof startSandbox>>;

function form(fields: Record<string, string>, csv?: string, header = 'handle'): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  if (csv !== undefined) fd.set('file', new Blob([`${header}\n${csv}`], { type: 'text/csv' }), 'batch.csv');
  return fd;
}

async function api(
  sb: Sb,
  method: string,
  path: string,
  body?: FormData,
): Promise<{ status: number; body: any; text: string; headers: Headers }> {
  const res = await fetch(`${sb.url}/public/v1/${path}`, {
    method,
    body,
    headers: { authorization: `Bearer ${sb.apiKey}` },
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

async function withSandbox(
  fn: (sb: Sb, clock: ReturnType<typeof testClock>) => Promise<void>,
  credits = 1000,
): Promise<void> {
  const clock = testClock();
  const sb = await startSandbox({ port: 0, now: clock.now, credits, batchRowsPerSecond: 10 });
  try {
    await fn(sb, clock);
  } finally {
    await sb.close();
  }
}

/** n handles on a platform: the sandbox's creators, every fourth one a handle nobody has (not found, free). */
const handles = (sb: Sb, n: number, platform = 'instagram'): string[] =>
  Array.from({ length: n }, (_, i) =>
    i % 4 === 3 ? `missing_${i}` : (sb.state.creators.list(platform as 'instagram')[i]?.profile.username as string),
  );

describe('sandbox batch jobs', () => {
  it('moves through validating, queued, processing and finished, charging only found rows', async () => {
    await withSandbox(async (sb, clock) => {
      const values = handles(sb, 40);
      const found = values.filter((v) =>
        sandboxFinds(sb.state, { seed: sb.state.seed, kind: 'handle', mode: 'raw', platform: 'instagram' }, v),
      ).length;
      expect(found).toBeGreaterThan(0);
      expect(found).toBeLessThan(40);
      const created = await api(
        sb,
        'POST',
        'enrichment/batch/',
        form({ enrichment_mode: 'raw', platform: 'instagram' }, values.join('\n')),
      );
      expect(created.status).toBe(200);
      expect(created.body.batch_id).toMatch(/^bch_[0-9a-f]{32}$/);
      expect(created.body.status).toBe('validating');
      const id = created.body.batch_id as string;
      clock.advance(1500);
      expect((await api(sb, 'GET', `enrichment/batch/${id}/status/`)).body.status).toBe('queued');
      clock.advance(500 + 2000); // 20 rows at 10/s
      const mid = (await api(sb, 'GET', `enrichment/batch/${id}/status/`)).body;
      expect(mid).toMatchObject({ status: 'processing', total_rows: 40, processed_rows: 20 });
      expect(typeof mid.credits_used).toBe('string');
      expect(mid.status_message).toBeUndefined();
      clock.advance(10_000);
      const done = (await api(sb, 'GET', `enrichment/batch/${id}/status/`)).body;
      expect(done).toMatchObject({
        status: 'finished',
        processed_rows: 40,
        success_count: found,
        failed_count: 40 - found,
      });
      expect(Number(done.credits_used)).toBeCloseTo(found * 0.03, 6);
      expect(sb.state.ledger.usedMilli).toBe(found * 30);
    });
  });

  it('refuses bad uploads with field errors and charges nothing', async () => {
    await withSandbox(async (sb) => {
      const cases: Array<[FormData, string]> = [
        [form({ enrichment_mode: 'raw' }, 'a'), 'platform'],
        [form({ enrichment_mode: 'turbo', platform: 'instagram' }, 'a'), 'enrichment_mode'],
        [form({ enrichment_mode: 'basic' }, 'a', 'handle'), 'file'],
        [form({ enrichment_mode: 'raw', platform: 'instagram' }), 'file'],
        [form({ enrichment_mode: 'raw', platform: 'instagram' }, 'a,b', 'handle,email'), 'file'],
      ];
      for (const [body, field] of cases) {
        const res = await api(sb, 'POST', 'enrichment/batch/', body);
        expect(res.status).toBe(400);
        expect(Object.keys(res.body.error)).toContain(field);
      }
      expect(sb.state.ledger.usedMilli).toBe(0);
    });
  });

  it('pauses for credits, resumes for free, and finishes', async () => {
    await withSandbox(async (sb, clock) => {
      const values = handles(sb, 10, 'tiktok');
      const found = values.filter((v) =>
        sandboxFinds(sb.state, { seed: sb.state.seed, kind: 'handle', mode: 'full', platform: 'tiktok' }, v),
      ).length;
      const id = (
        await api(
          sb,
          'POST',
          'enrichment/batch/',
          form({ enrichment_mode: 'full', platform: 'tiktok' }, values.join('\n')),
        )
      ).body.batch_id;
      clock.advance(60_000);
      const paused = (await api(sb, 'GET', `enrichment/batch/${id}/status/`)).body;
      expect(paused.status).toBe('paused_insufficient_credits');
      expect(paused.status_message).toMatch(/Insufficient credits/);
      expect(Number(paused.credits_used)).toBe(2);
      expect(sb.state.ledger.balanceMilli).toBe(0);
      expect((await api(sb, 'POST', `enrichment/batch/${id}/resume/`)).status).toBe(200);
      expect(sb.state.ledger.usedMilli).toBe(2000); // resume itself is free
      configureBatch(sb.state, {});
      sb.state.ledger.balanceMilli = 100_000;
      expect((await api(sb, 'POST', `enrichment/batch/${id}/resume/`)).status).toBe(400); // already processing
      clock.advance(60_000);
      const done = (await api(sb, 'GET', `enrichment/batch/${id}/status/`)).body;
      expect(done.status).toBe('finished');
      expect(Number(done.credits_used)).toBe(found);
    }, 2);
  });

  it('fails at a __fail__ row and continues after resume', async () => {
    await withSandbox(async (sb, clock) => {
      const id = (
        await api(
          sb,
          'POST',
          'enrichment/batch/',
          form({ enrichment_mode: 'raw', platform: 'instagram' }, 'a1\n__fail__\nb2'),
        )
      ).body.batch_id;
      clock.advance(10_000);
      const failed = (await api(sb, 'GET', `enrichment/batch/${id}/status/`)).body;
      expect(failed).toMatchObject({ status: 'failed', processed_rows: 1 });
      await api(sb, 'POST', `enrichment/batch/${id}/resume/`);
      clock.advance(10_000);
      expect((await api(sb, 'GET', `enrichment/batch/${id}/status/`)).body).toMatchObject({
        status: 'finished',
        processed_rows: 3,
      });
    });
  });

  it('serves results as CSV and JSON, and a download URL on another origin that expires', async () => {
    await withSandbox(async (sb, clock) => {
      const values = ['alpha', 'notfound_1', 'beta'];
      const id = (
        await api(
          sb,
          'POST',
          'enrichment/batch/',
          form({ enrichment_mode: 'raw', platform: 'youtube' }, values.join('\n')),
        )
      ).body.batch_id;
      expect((await api(sb, 'GET', `enrichment/batch/${id}/download/`)).status).toBe(400);
      clock.advance(10_000);
      const rows = (await api(sb, 'GET', `enrichment/batch/${id}/?format=json`)).body;
      expect(rows).toHaveLength(3);
      expect(rows[1]).toEqual({ input_value: 'notfound_1', status: 'not_found', enrichment_data: null });
      const csv = await api(sb, 'GET', `enrichment/batch/${id}/`);
      expect(csv.headers.get('content-type')).toBe('text/csv');
      expect(csv.text.split('\n')[0]).toBe(
        'input_value,status,platform,username,full_name,follower_count,engagement_percent,email,profile_url',
      );
      const link = (await api(sb, 'GET', `enrichment/batch/${id}/download/`)).body;
      expect(link).toMatchObject({ batch_id: id, total_results: 3, expires_in: 300, filename: `${id}_results.csv` });
      expect(new URL(link.download_url).origin).not.toBe(sb.url);
      const file = await fetch(link.download_url);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe(csv.text);
      const ranged = await fetch(link.download_url, { headers: { range: 'bytes=10-' } });
      expect(ranged.status).toBe(206);
      expect(await ranged.text()).toBe(csv.text.slice(10));
      clock.advance(301_000);
      const expired = await fetch(link.download_url);
      expect(expired.status).toBe(403);
      expect(await expired.text()).toContain('Request has expired');
      expect(batchWorld(sb.state).fileRequests.every((r) => r.headers.authorization === undefined)).toBe(true);
    });
  });

  it('hides other accounts\u2019 batches and answers 404 for /download/ when it is switched off', async () => {
    await withSandbox(async (sb, clock) => {
      const id = (
        await api(sb, 'POST', 'enrichment/batch/', form({ enrichment_mode: 'raw', platform: 'instagram' }, 'a'))
      ).body.batch_id;
      expect((await api(sb, 'GET', 'enrichment/batch/bch_00000000000000000000000000000000/status/')).status).toBe(404);
      const other = addApiKey(sb.state, { account: 'acct_other' });
      const foreign = await fetch(`${sb.url}/public/v1/enrichment/batch/${id}/status/`, {
        headers: { authorization: `Bearer ${other.token}` },
      });
      expect(foreign.status).toBe(404);
      clock.advance(5000);
      const res = await fetch(`${sb.url}/_sandbox/batch`, {
        method: 'POST',
        headers: JSON_BODY,
        body: JSON.stringify({ downloadRoute: false }),
      });
      expect(((await res.json()) as { downloadRoute: boolean }).downloadRoute).toBe(false);
      expect((await api(sb, 'GET', `enrichment/batch/${id}/download/`)).status).toBe(404);
      const bad = await fetch(`${sb.url}/_sandbox/batch`, {
        method: 'POST',
        headers: JSON_BODY,
        body: JSON.stringify({ speed: 'fast' }),
      });
      expect(bad.status).toBe(400);
    });
  });

  it('lets scripts move batch time with advanceSeconds', async () => {
    await withSandbox(async (sb) => {
      const id = (
        await api(sb, 'POST', 'enrichment/batch/', form({ enrichment_mode: 'raw', platform: 'instagram' }, 'a\nb'))
      ).body.batch_id;
      await fetch(`${sb.url}/_sandbox/batch`, {
        method: 'POST',
        headers: JSON_BODY,
        body: JSON.stringify({ advanceSeconds: 60 }),
      });
      expect((await api(sb, 'GET', `enrichment/batch/${id}/status/`)).body.status).toBe('finished');
    });
  });

  it('a batch row finds exactly what single enrichment finds (one source of truth)', async () => {
    await withSandbox(async (sb, clock) => {
      const post = async (path: string, body: unknown): Promise<any> =>
        (
          await fetch(`${sb.url}/public/v1/${path}`, {
            method: 'POST',
            headers: { ...JSON_BODY, authorization: `Bearer ${sb.apiKey}` },
            body: JSON.stringify(body),
          })
        ).json();
      // noah_paws is an Instagram creator, not a TikTok one: not found (and free) both ways.
      expect(sb.state.creators.find('instagram', 'noah_paws')).toBeDefined();
      const single = await post('creators/enrich/handle/full/', { handle: 'noah_paws', platform: 'tiktok' });
      expect(single.status).toBe('not_found');
      const tiktok = sb.state.creators.list('tiktok')[0]!.profile.username;
      const h = (
        await api(
          sb,
          'POST',
          'enrichment/batch/',
          form({ enrichment_mode: 'full', platform: 'tiktok' }, `noah_paws\n${tiktok}`),
        )
      ).body.batch_id;
      // An address: the platform single enrichment gives first is the batch row's platform.
      const person = sb.state.creators.list('instagram').find((c) => c.email)!;
      const email = person.email as string;
      const byEmail = await post('creators/enrich/email/', { email });
      const e = (await api(sb, 'POST', 'enrichment/batch/', form({ enrichment_mode: 'basic' }, email, 'email'))).body
        .batch_id;
      clock.advance(60_000);
      const rows = (await api(sb, 'GET', `enrichment/batch/${h}/?format=json`)).body;
      expect(rows.map((r: { status: string }) => r.status)).toEqual(['not_found', 'success']);
      expect(rows[1].enrichment_data.tiktok.username).toBe(tiktok);
      const [row] = (await api(sb, 'GET', `enrichment/batch/${e}/?format=json`)).body;
      expect(row.status).toBe('success');
      expect(row.enrichment_data.platform).toBe(byEmail.result.platforms[0]);
      expect(row.enrichment_data.username).toBe(byEmail.result[row.enrichment_data.platform].username);
      // Charged: the single email (0.05), the found TikTok row at full (1) and the email row at basic (0.05).
      expect(sb.state.ledger.usedMilli).toBe(1100);
    });
  });
});
