/**
 * The MCP tools state their prices to the agent, which decides what to buy from them: every figure must be the
 * contract's (a stale `basic 0.1` once told agents email enrichment cost twice what it does).
 */
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/app/mcp/tools.js';
import { PRICES } from '../../src/contract/prices.js';

const published = new Set(
  Object.values(PRICES).flatMap((p) => [p.chargedMilli, p.worstCaseMilli].map((m) => String(m / 1000))),
);

describe('MCP tool descriptions', () => {
  it('state only prices from the price table', () => {
    const stated = TOOLS.flatMap((t) => [...t.description.matchAll(/\b\d+\.\d+\b/g)].map((m) => `${t.name}: ${m[0]}`));
    expect(stated.length).toBeGreaterThan(5);
    expect(stated.filter((s) => !published.has(s.split(': ')[1] as string))).toEqual([]);
  });

  it('price email basic at what the service charges', () => {
    const byName = new Map(TOOLS.map((t) => [t.name, t.description]));
    expect(byName.get('enrich_email')).toContain('basic 0.05, advanced 2 credits per email found');
    expect(byName.get('batch_create')).toContain('raw 0.03, full 1, basic 0.05, advanced 2');
    expect(byName.get('enrich_handle')).toContain('raw 0.03, profile 0.2, analytics 0.8, full 1 credit');
    expect(byName.get('creator_posts')).toContain('0.15 credits a page');
  });
});
