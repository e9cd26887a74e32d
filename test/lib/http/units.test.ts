import { describe, expect, it } from 'vitest';
import { parseBaseUrl } from '../../../src/app/factory/config.js';
import { apiPath, buildUrl, pathSegment } from '../../../src/lib/http/url.js';
import { maskEmails, redactText, redactUrl, redactValue } from '../../../src/lib/http/redact.js';
import { Pacer } from '../../../src/lib/http/pacer.js';
import { retryAfterSeconds } from '../../../src/lib/http/decode-error.js';

describe('paths', () => {
  it.each([
    ['accounts/credits', '/public/v1/accounts/credits/'],
    ['/accounts/credits/', '/public/v1/accounts/credits/'],
    ['/public/v1/discovery', '/public/v1/discovery/'],
    ['public/v1/discovery/', '/public/v1/discovery/'],
    ['social/listening/events?page=2', '/public/v1/social/listening/events/?page=2'],
  ])('%s -> %s', (input, expected) => {
    expect(apiPath(input)).toBe(expected);
  });

  it('keeps a base path prefix (a proxy mount) and adds the query', () => {
    const url = buildUrl(parseBaseUrl('https://gw.example.com/api/'), 'accounts/credits', {
      a: 1,
      b: ['x', 'y'],
      c: undefined,
    });
    expect(url.href).toBe('https://gw.example.com/api/public/v1/accounts/credits/?a=1&b=x&b=y');
  });

  it.each(['../x', 'a/b', 'x?y', '', 'a b'])('refuses the path segment %j', (value) => {
    expect(() => pathSegment(value, 'id')).toThrow(/Invalid id/);
  });

  it('accepts normal ids', () => {
    expect(pathSegment('bch_97912db6fec544b9aafc4ab8ef057e8b', 'batch id')).toBe(
      'bch_97912db6fec544b9aafc4ab8ef057e8b',
    );
  });
});

describe('redaction', () => {
  it('masks email local parts', () => {
    expect(maskEmails('write to jane.doe@example.com or a@b.io')).toBe('write to j***@example.com or a***@b.io');
  });

  it('redacts secret query parameters and emails in URLs', () => {
    const out = redactUrl('https://x.test/cb?code=abc123&state=s1&email=jane%40example.com');
    expect(out).toContain('code=REDACTED');
    expect(out).toContain('state=s1');
    expect(out).not.toContain('abc123');
    expect(out).toContain('j***@example.com');
  });

  it('redacts secret keys at any depth', () => {
    expect(
      redactValue({ a: { token: 'tkn', refresh_token: 'r', list: [{ code_verifier: 'v' }] }, name: 'ok' }),
    ).toEqual({
      a: { token: 'REDACTED', refresh_token: 'REDACTED', list: [{ code_verifier: 'REDACTED' }] },
      name: 'ok',
    });
  });

  it('redacts form bodies and literal secrets', () => {
    expect(redactText('grant_type=refresh_token&refresh_token=rt_secret&client_id=c1')).toBe(
      'grant_type=refresh_token&refresh_token=REDACTED&client_id=c1',
    );
    expect(redactText('plain text with sk_live_123456 inside', ['sk_live_123456'])).toBe(
      'plain text with REDACTED inside',
    );
  });
});

describe('pacer', () => {
  const paced = (perMinute: number) => {
    const clock = { now: 0, sleeps: [] as number[] };
    const pacer = new Pacer(
      perMinute,
      () => clock.now,
      async (ms) => {
        clock.sleeps.push(ms);
        clock.now += ms;
      },
    );
    return { pacer, clock };
  };

  it('lets a burst of 5 leave at once, then spaces requests evenly under the per-minute limit', async () => {
    const { pacer, clock } = paced(300);
    const sent: number[] = [];
    for (let i = 0; i < 1000; i++) {
      await pacer.acquire();
      sent.push(clock.now);
    }
    expect(sent.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(sent[5]).toBeGreaterThan(200);
    // No 60-second window ever holds more than the limit (a sliding-window server never says 429)...
    let most = 0;
    for (let i = 0, j = 0; i < sent.length; i++) {
      while ((sent[i] as number) - (sent[j] as number) >= 60_000) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBeLessThanOrEqual(300);
    // ...and the steady rate stays close to it.
    expect(most).toBeGreaterThanOrEqual(290);
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(210);
  });

  it('refills the burst after a pause, and has none at 10 requests/min or less', async () => {
    const { pacer, clock } = paced(300);
    for (let i = 0; i < 10; i++) await pacer.acquire();
    clock.now += 60_000;
    const before = clock.sleeps.length;
    for (let i = 0; i < 5; i++) await pacer.acquire();
    expect(clock.sleeps.length).toBe(before);
    const slow = paced(10);
    await slow.pacer.acquire();
    await slow.pacer.acquire();
    expect(slow.clock.sleeps).toEqual([6120]);
  });

  it('after a 429 delays everyone, with no burst after the wait', async () => {
    const { pacer, clock } = paced(300);
    await pacer.acquire();
    pacer.delay(5_000);
    const sent: number[] = [];
    for (let i = 0; i < 3; i++) {
      await pacer.acquire();
      sent.push(clock.now);
    }
    expect(sent[0]).toBeGreaterThanOrEqual(5_000);
    expect((sent[1] as number) - (sent[0] as number)).toBeGreaterThan(200);
    expect((sent[2] as number) - (sent[1] as number)).toBeGreaterThan(200);
  });

  it('a 429 (backOff) holds every later request for the wait, lowers the pace once per wait, then recovers while quiet', async () => {
    const { pacer, clock } = paced(300);
    for (let i = 0; i < 20; i++) await pacer.acquire();
    const full = pacer.perSecond();
    clock.now = 10_000;
    // Three workers answered 429 by the same wait: one lowering, one "first" (the one notice).
    expect(pacer.backOff(3_000)).toBe(true);
    expect(pacer.backOff(3_000)).toBe(false);
    clock.now += 100;
    expect(pacer.backOff(2_900)).toBe(false);
    expect(pacer.perSecond()).toBeCloseTo(full * 0.8, 6);
    expect(pacer.perMinuteNow).toBeCloseTo(240, 6);
    // Every later request waits the server's time, then goes at the lowered pace, no burst.
    const sent: number[] = [];
    for (let i = 0; i < 4; i++) {
      await pacer.acquire();
      sent.push(clock.now);
    }
    expect(sent[0]).toBeGreaterThanOrEqual(13_000);
    expect((sent[2] as number) - (sent[1] as number)).toBeCloseTo(1000 / (full * 0.8), 0);
    // A 429 after that wait lowers it again; the floor is a quarter of the limit.
    for (let i = 0; i < 10; i++) {
      clock.now += 4_000;
      pacer.backOff(1_000);
    }
    expect(pacer.perSecond()).toBeCloseTo(full * 0.25, 6);
    // Quiet: a tenth of the limit back per 5 s after the last wait ended, up to the full pace.
    const lastWaitEnds = clock.now + 1_000;
    clock.now = lastWaitEnds + 4_999;
    expect(pacer.perSecond()).toBeCloseTo(full * 0.25, 6);
    clock.now = lastWaitEnds + 5_000;
    expect(pacer.perSecond()).toBeCloseTo(full * 0.35, 6);
    clock.now = lastWaitEnds + 60_000;
    expect(pacer.perSecond()).toBeCloseTo(full, 6);
    expect(pacer.backOffs).toBe(13);
  });
});

describe('Retry-After', () => {
  it('reads the body first, then the header in seconds or as a date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterSeconds({ retry_after: 12 }, '3', now)).toBe(12);
    expect(retryAfterSeconds({ retry_after: '4' }, undefined, now)).toBe(4);
    expect(retryAfterSeconds({}, '3', now)).toBe(3);
    expect(retryAfterSeconds(undefined, 'Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds({}, undefined, now)).toBeUndefined();
  });
});

describe('presigned links in the debug log', () => {
  it('redacts the signature of a download URL, in URLs and in JSON bodies', () => {
    const link =
      'http://127.0.0.1:9/batch-results/x.csv?X-Amz-Expires=300&X-Amz-Signature=8531a18a31df8781308e4cb66ea5e0af';
    expect(redactUrl(link)).not.toContain('8531a18a');
    expect(redactUrl(link)).toContain('X-Amz-Expires=300');
    const body = redactText(JSON.stringify({ download_url: link, filename: 'x.csv' }));
    expect(body).not.toContain('8531a18a');
    expect(body).toContain('x.csv');
  });
});
