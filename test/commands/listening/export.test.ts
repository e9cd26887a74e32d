import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../helpers/mock-api.js';
import { runCli } from '../../helpers/run-cli.js';
import { tempDir } from '../../helpers/temp.js';

describe('creators listening subscriptions export', () => {
  it('copies the server CSV byte for byte, even bytes that are not UTF-8', async () => {
    const { agent, pool, env } = mockApi();
    // Latin-1 "café" from a server that does not speak UTF-8: must arrive unchanged, not as U+FFFD.
    const csv = Buffer.concat([Buffer.from('name,value\ncaf'), Buffer.from([0xe9]), Buffer.from(',1\n')]);
    pool
      .intercept({ path: '/public/v1/social/listening/subscription/3/details/export/', method: 'GET' })
      .reply(200, csv, { headers: { 'content-type': 'text/csv' } });
    const file = join(tempDir('creators-export-'), 'stats.csv');
    const res = await runCli(['listening', 'subscriptions', 'export', '3', '-o', file], { env, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(readFileSync(file).equals(csv)).toBe(true);
  });
});
