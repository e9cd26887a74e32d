import { describe, expect, it } from 'vitest';
import {
  changeEntries,
  changeEntriesPlan,
  getExclusionList,
  getExclusionListPlan,
  listEntries,
  listEntriesPlan,
  parseListRef,
} from '../../../src/lib/api/exclusions.js';
import type { HttpClient } from '../../../src/lib/http/client.js';
import type { RequestOptions } from '../../../src/lib/http/types.js';

function recorder(): { http: HttpClient; sent: RequestOptions[] } {
  const sent: RequestOptions[] = [];
  const http = {
    async request(req: RequestOptions) {
      sent.push(req);
      return { status: 200, headers: {}, data: { id: 1, handles: [] }, url: '' };
    },
  } as unknown as HttpClient;
  return { http, sent };
}

describe('exclusion-list plans (lib/api)', () => {
  it('a read of default:<platform> is sent as creating state (the service creates the list), a read by id is not', async () => {
    const { http, sent } = recorder();
    await getExclusionList(http, parseListRef('default:instagram'));
    await listEntries(http, parseListRef('default:tiktok'), { offset: 0, limit: 5 });
    await getExclusionList(http, parseListRef('7'));
    await listEntries(http, parseListRef('7'), {});
    expect(sent.map((r) => [r.method, r.path, r.createsState ?? false])).toEqual([
      ['GET', 'discovery/exclusion-lists/default/instagram', true],
      ['GET', 'discovery/exclusion-lists/default/tiktok/entries', true],
      ['GET', 'discovery/exclusion-lists/7', false],
      ['GET', 'discovery/exclusion-lists/7/entries', false],
    ]);
  });

  it('plans are free; a default-list read says it may create the list', () => {
    expect(getExclusionListPlan(parseListRef('default:youtube'))).toEqual({
      method: 'GET',
      path: 'discovery/exclusion-lists/default/youtube',
      worstCaseMilli: 0,
      costBasis: 'free; creates the default youtube list if it does not exist yet',
    });
    expect(getExclusionListPlan(parseListRef('3'))).toEqual({
      method: 'GET',
      path: 'discovery/exclusion-lists/3',
      worstCaseMilli: 0,
    });
    expect(listEntriesPlan(parseListRef('3'), { offset: 2, limit: 4 })).toMatchObject({
      query: { offset: 2, limit: 4 },
      worstCaseMilli: 0,
    });
  });

  it('add/remove: the plan is the first chunk of at most 10,000; every chunk is sent', async () => {
    const handles = Array.from({ length: 10_001 }, (_, i) => `h${i}`);
    const plan = changeEntriesPlan(parseListRef('4'), handles, 'remove');
    expect(plan).toMatchObject({
      method: 'DELETE',
      path: 'discovery/exclusion-lists/4/entries',
      worstCaseMilli: 0,
      costBasis: '10,001 handles in 2 requests, free',
    });
    expect((plan.body as { handles: string[] }).handles).toHaveLength(10_000);
    const { http, sent } = recorder();
    await changeEntries(http, parseListRef('4'), handles, 'add');
    expect(sent.map((r) => [r.method, (r.body as { handles: string[] }).handles.length])).toEqual([
      ['POST', 10_000],
      ['POST', 1],
    ]);
  });
});
