import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/lib/api/plan.js';
import { buildBody } from '../../../src/lib/body.js';
import type { HttpClient } from '../../../src/lib/http/client.js';
import { creatorRefs, parseCreatorRef } from '../../../src/lib/listening/creators.js';
import {
  creatorsCount,
  deleteListening,
  monitoringNotice,
  type ListeningPorts,
} from '../../../src/lib/listening/workflows.js';

const ports = (stdin = ''): { cwd: string; stdin: Readable; stdinIsTTY: boolean } => ({
  cwd: '/',
  stdin: Readable.from([stdin]),
  stdinIsTTY: false,
});

describe('lib/listening', () => {
  it("the monitoring notice: at most, or per day when open-ended (the budget in the caller's words); none without creators", () => {
    const named = { budget: 'the budget' };
    expect(monitoringNotice({ creators: 3, days: 30 }, named)).toBe(
      'Estimated monitoring cost: 3 creators x 30 days x 0.3 = 27 credits (at most; a creator already monitored costs nothing more).',
    );
    expect(monitoringNotice({ creators: 2 }, named)).toBe(
      'Estimated monitoring cost: 2 creators x 0.3 = 0.6 credits per day while monitored (open-ended: the budget is checked against one day; a creator already monitored costs nothing more).',
    );
    expect(monitoringNotice({ creators: 0 }, named)).toBeUndefined();
    expect(monitoringNotice({ creators: null, days: 3 }, named)).toBeUndefined();
  });

  it('creatorsCount reads a count the server sends as a number or a string, else null', () => {
    expect(creatorsCount({ creators_count: 4 })).toBe(4);
    expect(creatorsCount({ creators_count: '2' })).toBe(2);
    expect(creatorsCount({ creators_count: 0 })).toBe(0);
    expect(creatorsCount({})).toBeNull();
    expect(creatorsCount({ creators_count: 'many' })).toBeNull();
  });

  it('creator references from arguments and a piped file, platform asked for after the file is read', async () => {
    const order: string[] = [];
    const refs = await creatorRefs(ports('# comment\nb\n\ntiktok:c\n'), {
      values: ['a'],
      file: { path: '-', named: '--file' },
      platform: async () => {
        order.push('platform');
        return 'instagram';
      },
    });
    expect(refs).toEqual([
      { platform: 'instagram', platform_id: 'a' },
      { platform: 'instagram', platform_id: 'b' },
      { platform: 'tiktok', platform_id: 'c' },
    ]);
    expect(order).toEqual(['platform']);
    expect(() => parseCreatorRef('nasa', undefined)).toThrow("No platform for creator 'nasa'.");
  });

  it('buildBody reads the body file through its port; the fields override the pairs, the pairs override the file', async () => {
    const read: string[] = [];
    const bodyPorts = { bodyObject: async (source: string) => (read.push(source), { name: 'file', a: 1 }) };
    const body = await buildBody(
      bodyPorts,
      {
        file: '-',
        pairs: [
          { path: ['a'], value: 2 },
          { path: ['b', 'c'], value: 'x' },
        ],
      },
      { name: 'flag', skipped: undefined },
    );
    expect(read).toEqual(['-']);
    expect(body).toEqual({ name: 'flag', a: 2, b: { c: 'x' } });
  });

  it('a declined gate sends nothing and asks nothing', async () => {
    const asked: string[] = [];
    const planned: Plan[] = [];
    const p: ListeningPorts = {
      http: async () => ({ request: () => Promise.reject(new Error('sent')) }) as unknown as HttpClient,
      term: { notice: () => {}, confirm: async (q) => (asked.push(q), true) },
      gate: async (plan) => (planned.push(plan), false),
      dryRun: true,
      now: () => 0,
      named: { budget: '--max-credits' },
    };
    expect(await deleteListening(p, 'subscription', '3', 'Delete')).toBeNull();
    expect(planned).toEqual([{ method: 'DELETE', path: 'social/listening/subscription/3/', worstCaseMilli: 0 }]);
    expect(asked).toEqual([]);
  });
});
