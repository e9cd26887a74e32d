import { describe, expect, it } from 'vitest';
import { MODE_PRICE, WORST_CASE_MILLI } from '../../../src/contract/prices.js';
import { batchRowPriceMilli, batchStatusPlan, createBatchPlan, resumeBatchPlan } from '../../../src/lib/api/batch.js';
import { planUrl } from '../../../src/lib/api/plan.js';

describe('batch plans', () => {
  it.each(['raw', 'full', 'basic', 'advanced'] as const)(
    'create (%s): worst case = rows x the mode price from the contract',
    (mode) => {
      const plan = createBatchPlan({ mode, fields: [['enrichment_mode', mode]], column: 'handle', rows: 7 });
      expect(batchRowPriceMilli(mode)).toBe(WORST_CASE_MILLI[MODE_PRICE[mode]]);
      expect(plan).toMatchObject({
        method: 'POST',
        path: 'enrichment/batch',
        worstCaseMilli: 7 * WORST_CASE_MILLI[MODE_PRICE[mode]],
      });
      expect(plan.body).toEqual({ enrichment_mode: mode, file: "batch.csv (text/csv, column 'handle', 7 rows)" });
    },
  );

  it('a split input says how many files', () => {
    const plan = createBatchPlan({ mode: 'basic', fields: [], column: 'email', rows: 10, files: 2 });
    expect(plan).toMatchObject({
      worstCaseMilli: 500,
      costBasis: '10 rows x 0.05 (basic), charged only for rows with data',
    });
    expect(plan.body).toEqual({ file: "batch.csv (text/csv, column 'email', 10 rows in 2 files)" });
  });

  it('resume is a free POST; status a free GET; both on the id route', () => {
    const base = new URL('https://api.test');
    const resume = resumeBatchPlan('bch_1');
    expect(resume).toMatchObject({ method: 'POST', body: {}, worstCaseMilli: 0 });
    expect(planUrl(base, resume).href).toBe('https://api.test/public/v1/enrichment/batch/bch_1/resume/');
    expect(planUrl(base, batchStatusPlan('bch_1')).href).toBe(
      'https://api.test/public/v1/enrichment/batch/bch_1/status/',
    );
    expect(() => resumeBatchPlan('../x')).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});
