/**
 * One pricing engine: `creators api <route> --dry-run` is priced by the plan builders the typed verbs
 * use, so the raw request a verb sends, replayed through `creators api`, is quoted the same (worst case
 * and basis). Once two engines disagreed: the api assumed 50 creators a page where the service's
 * default is 20 (0.5 credits for a search the verb quoted at 0.2).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const sb = useSandbox();
const env = () => sandboxEnv(sb.get());

interface Quote {
  method: string;
  url: string;
  body: Record<string, unknown> | null;
  worst_case_credits: number | null;
  cost_basis: string | null;
}

async function dryRun(argv: string[]): Promise<Quote> {
  const res = await runCli([...argv, '--dry-run', '--json'], { env: env() });
  expect(res.code, res.stderr).toBe(0);
  return res.json<Quote>();
}

/** The typed verb's request, sent through `creators api` as it is (path with its query, body from a file). */
async function throughApi(verb: Quote): Promise<Quote> {
  const url = new URL(verb.url);
  const file = join(tempDir(), 'body.json');
  writeFileSync(file, JSON.stringify(verb.body ?? {}));
  return dryRun(['api', `${url.pathname}${url.search}`, '-X', verb.method, '--input', file]);
}

describe('creators api quotes what the typed verb quotes for the same request', () => {
  // The bulk verbs (enrich, socials) word their basis per input (`1 handle x 1`): the same figure.
  it.each<[string, string[], 'basis too' | 'figure']>([
    ['search', ['search', '--platform', 'instagram'], 'basis too'],
    [
      'search --limit 7 --return-filter-values',
      ['search', '--platform', 'tiktok', '--limit', '7', '--return-filter-values'],
      'basis too',
    ],
    ['similar', ['similar', 'nasa', '--platform', 'instagram'], 'basis too'],
    ['enrich handle (full)', ['enrich', 'handle', 'nasa', '--platform', 'instagram'], 'figure'],
    ['enrich handle --mode raw', ['enrich', 'handle', 'nasa', '--platform', 'instagram', '--mode', 'raw'], 'figure'],
    ['enrich email', ['enrich', 'email', 'ann@example.com'], 'figure'],
    ['enrich email --mode advanced', ['enrich', 'email', 'ann@example.com', '--mode', 'advanced'], 'figure'],
    ['posts', ['posts', 'nasa', '--platform', 'tiktok'], 'basis too'],
    ['post', ['post', 'abc123', '--platform', 'instagram'], 'basis too'],
    ['socials', ['socials', 'nasa', '--platform', 'instagram'], 'figure'],
    ['overlap', ['overlap', 'nasa', 'esa', '--platform', 'instagram'], 'basis too'],
    [
      'listening subscriptions create',
      ['listening', 'subscriptions', 'create', '--name', 'q', '--platform', 'instagram', 'ann', 'bob'],
      'figure',
    ],
    ['batch resume', ['batch', 'resume', 'bch_0123456789abcdef0123456789abcdef'], 'basis too'],
  ])('%s', async (_name, argv, same) => {
    const verb = await dryRun(argv);
    const api = await throughApi(verb);
    expect(api.url).toBe(verb.url);
    expect(verb.worst_case_credits).not.toBeNull();
    expect(api.worst_case_credits).toBe(verb.worst_case_credits);
    if (same === 'basis too') expect(api.cost_basis).toBe(verb.cost_basis);
  });

  it('a search body without paging is quoted at the service default of 20 a page, as `search` quotes it', async () => {
    const api = await dryRun(['api', 'discovery', '-X', 'POST', '-f', 'platform=instagram']);
    const verb = await dryRun(['search', '--platform', 'instagram']);
    expect(api.worst_case_credits).toBe(0.2);
    expect(api.worst_case_credits).toBe(verb.worst_case_credits);
  });

  it('the legacy batch routes the n8n node sends are priced: a create per email at the basic rate, resume free', async () => {
    const create = await dryRun(['api', 'creators/enrich/public', '-f', 'emails=a@example.com,b@example.com']);
    expect(create).toMatchObject({
      worst_case_credits: 0.1,
      cost_basis: '2 emails x 0.05 (basic), charged only for rows with data',
    });
    const resume = await dryRun(['api', 'creators/enrich/public/bch_1/resume', '-X', 'POST']);
    expect(resume.worst_case_credits).toBe(0);
    const status = await dryRun(['api', 'creators/enrich/public/bch_1']);
    expect(status.worst_case_credits).toBe(0);
  });
});
