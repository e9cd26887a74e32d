import { afterEach, describe, expect, it } from 'vitest';
import {
  drawLatency,
  latencyFamily,
  LatencySpecError,
  parseLatencySpec,
  REAL_LATENCY_SPEC,
} from '../../src/sandbox/latency.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { call, start } from './helpers.js';
import { until } from '../helpers/until.js';

const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function sandbox(options: Parameters<typeof start>[0]): Promise<Sandbox> {
  const sb = await start(options);
  open.push(sb);
  return sb;
}

describe('latency spec', () => {
  it('reads median ± spread per family, ms or s (a bare median is seconds, a bare spread takes its unit), ± or +-', () => {
    expect(parseLatencySpec('discovery=1.2s±0.5,enrich=2s+-1,default=150ms')).toEqual({
      discovery: { medianMs: 1200, spreadMs: 500 },
      enrich: { medianMs: 2000, spreadMs: 1000 },
      default: { medianMs: 150, spreadMs: 0 },
    });
    expect(parseLatencySpec('300ms')).toEqual({ default: { medianMs: 300, spreadMs: 0 } });
    expect(parseLatencySpec('default=150ms±50,enrich=2±0.5')).toEqual({
      default: { medianMs: 150, spreadMs: 50 },
      enrich: { medianMs: 2000, spreadMs: 500 },
    });
    expect(parseLatencySpec('0')).toEqual({});
    expect(parseLatencySpec('real')).toEqual(parseLatencySpec(REAL_LATENCY_SPEC));
  });

  it.each([
    ['search=1s', /unknown route family 'search'/],
    ['enrich=fast', /not a duration/],
    ['enrich=1s±1±2', /more than one ±/],
  ])('refuses %s', (spec, message) => {
    expect(() => parseLatencySpec(spec)).toThrow(LatencySpecError);
    expect(() => parseLatencySpec(spec)).toThrow(message);
  });

  it('families by path; the sandbox control surface is never held', () => {
    expect(latencyFamily('/public/v1/discovery/')).toBe('discovery');
    expect(latencyFamily('/public/v1/discovery/classifier/languages/')).toBe('dictionaries');
    expect(latencyFamily('/public/v1/creators/enrich/handle/full/')).toBe('enrich');
    expect(latencyFamily('/public/v1/creators/enrich/public/bch_1/')).toBe('batch');
    expect(latencyFamily('/public/v1/creators/content/posts/')).toBe('content');
    expect(latencyFamily('/public/v1/social/listening/events/')).toBe('listening');
    expect(latencyFamily('/public/v1/accounts/credits/')).toBe('default');
    expect(latencyFamily('/_sandbox/ledger')).toBeUndefined();
  });
});

describe('latency draws', () => {
  it('are the same under the same seed, differ under another, stay within median ± spread around the median', async () => {
    const spec = 'enrich=2s±1,default=150ms';
    const [a, b, c] = await Promise.all([
      sandbox({ seed: 5, latency: spec }),
      sandbox({ seed: 5, latency: spec }),
      sandbox({ seed: 6, latency: spec }),
    ]);
    const draws = (sb: Sandbox): number[] =>
      Array.from({ length: 2001 }, () => drawLatency(sb.state, '/public/v1/creators/enrich/handle/raw/'));
    const da = draws(a);
    expect(draws(b)).toEqual(da);
    expect(draws(c)).not.toEqual(da);
    expect(Math.min(...da)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...da)).toBeLessThanOrEqual(3000);
    const median = [...da].sort((x, y) => x - y)[1000] as number;
    expect(Math.abs(median - 2000)).toBeLessThan(100);
    // Other families fall back on default; no model, no latency.
    expect(drawLatency(a.state, '/public/v1/accounts/credits/')).toBe(150);
    expect(drawLatency((await sandbox({})).state, '/public/v1/creators/enrich/handle/raw/')).toBe(0);
  });

  it('a held reply does not hold the others: a quick request sent after a slow one is answered first', async () => {
    const sb = await sandbox({ latency: 'enrich=30s,default=0' });
    const abort = new AbortController();
    const order: string[] = [];
    const slow = fetch(`${sb.url}/public/v1/creators/enrich/handle/raw/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sb.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ handle: 'cristiano', platform: 'instagram' }),
      signal: abort.signal,
    }).then(
      () => order.push('slow'),
      () => order.push('slow aborted'),
    );
    // The slow request has been counted by the throttle (it reached the sandbox) before the quick one is sent.
    const counted = (): number => [...sb.state.throttle.values()].reduce((n, hits) => n + hits.length, 0);
    await until('the slow request to reach the sandbox', () => counted() > 0);
    expect(counted()).toBe(1);
    const quick = await call(sb, '/public/v1/accounts/credits/');
    order.push('quick');
    expect(quick.status).toBe(200);
    abort.abort();
    await slow;
    expect(order).toEqual(['quick', 'slow aborted']);
  });
});
