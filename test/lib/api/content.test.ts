import { describe, expect, it } from 'vitest';
import { WORST_CASE_MILLI } from '../../../src/contract/prices.js';
import { commentPagesPlan, postDetailsPlan } from '../../../src/lib/api/content.js';

const req = { platform: 'tiktok', postId: 'x1', kind: 'comments' as const };
const body = { platform: 'tiktok', post_id: 'x1', content_type: 'comments' };
const price = WORST_CASE_MILLI.postDetails;

describe('post details plans', () => {
  it('one request at the contract price', () => {
    expect(postDetailsPlan({ ...req, kind: 'data' })).toEqual({
      method: 'POST',
      path: 'creators/content/details',
      body: { ...body, content_type: 'data' },
      worstCaseMilli: price,
      costBasis: '1 request x 0.03',
      // A page of a post's data: the purchase memory keeps it for the page window.
      purchase: { kind: 'page', platform: req.platform },
      label: 'Fetching the post…',
    });
  });

  it('comment pages: exact with a page count, bounded by a budget without one, unknown with neither', () => {
    expect(commentPagesPlan(req, { maxPages: 4, budget: { milli: 10, named: 'the budget' } })).toEqual({
      pages: 4,
      plan: expect.objectContaining({ body, worstCaseMilli: 4 * price, costBasis: '4 requests x 0.03' }),
    });
    expect(commentPagesPlan(req, { budget: { milli: 100, named: 'the budget' } })).toEqual({
      pages: 3,
      plan: expect.objectContaining({
        worstCaseMilli: 3 * price,
        costBasis: 'pages unknown x 0.03; stops after 3 pages to stay within the budget',
      }),
    });
    expect(commentPagesPlan(req, {})).toEqual({
      pages: Infinity,
      plan: expect.objectContaining({ worstCaseMilli: null, costBasis: 'pages unknown x 0.03' }),
    });
  });
});
