import {
  cleanEmail,
  cleanHandle,
  enrichEmail,
  enrichEmailPlan,
  enrichHandle,
  enrichHandlePlan,
  type EmailOptions,
  type HandleOptions,
} from '../api/enrichment.js';
import { connectedSocials, connectedSocialsPlan } from '../api/creators.js';
import { ApiError } from '../errors.js';
import type { EnrichJob } from './enrich.js';
import { emailResultColumns, handleResultColumns, tableColumns } from './records.js';

/** `enrich handle`: one request per handle, billed per creator found. */
export function handleJob(options: HandleOptions): EnrichJob {
  const { mode, platform } = options;
  return {
    label: 'enrich handle',
    kind: 'handle',
    platform,
    clean: cleanHandle,
    plan: (handle) => enrichHandlePlan(handle, options),
    request: { ...options },
    send: async (http, handle) => {
      try {
        return await enrichHandle(http, handle, options);
      } catch (err) {
        // The client's platform lists come from the docs; say so when the server disagrees.
        if (err instanceof ApiError && err.status === 400 && /platform/i.test(err.message)) {
          throw new ApiError(`The service refused ${platform} for ${mode} enrichment: ${err.message}`, {
            status: 400,
            code: 'unsupported_platform',
          });
        }
        throw err;
      }
    },
    resultColumns: handleResultColumns(platform),
    tableColumns: (col) => tableColumns(col, 'handle', platform),
  };
}

export function emailJob(options: EmailOptions): EnrichJob {
  return {
    label: 'enrich email',
    kind: 'email',
    clean: cleanEmail,
    plan: (email) => enrichEmailPlan(email, options),
    request: { ...options },
    send: (http, email) => enrichEmail(http, email, options),
    resultColumns: emailResultColumns(),
    tableColumns: (col) => tableColumns(col, 'email'),
  };
}

/** `socials`: one request per handle, 0.5 credits per creator with connected socials found. */
export function socialsJob(platform: string): EnrichJob {
  return {
    label: 'socials',
    kind: 'handle',
    platform,
    clean: cleanHandle,
    plan: (handle) => connectedSocialsPlan(handle, platform),
    request: { route: 'socials', platform },
    send: (http, handle) => connectedSocials(http, handle, platform),
    // `result.socials` is a list of {platform, handle, url}: one JSON cell in csv/tsv, nested in json.
    resultColumns: ['result.handle', 'result.socials', 'result_json'],
    tableColumns: (col) => [
      { path: col, header: col },
      { path: 'status', header: 'status' },
      { path: 'result.socials', header: 'socials', kind: 'accounts' },
      { path: 'credits_cost', header: 'credits', kind: 'number' },
      { path: 'error', header: 'error' },
    ],
  };
}
