/**
 * Sandbox routes: social listening under `/public/v1/social/listening/` (subscriptions, campaigns,
 * events, usage) and the sandbox-only `/_sandbox/listening` control surface (move time, list order,
 * delivery failure rate, a seeded backlog). Request and response bodies are the sandbox's own choice where the spec
 * is silent; the logic lives in `../listening/`.
 */
import * as campaigns from '../listening/campaigns.js';
import * as events from '../listening/events.js';
import * as subscriptions from '../listening/subscriptions.js';
import type { Router } from '../router.js';

const BASE = '/public/v1/social/listening';

export function register(router: Router): void {
  router.get(`${BASE}/subscription/`, subscriptions.list);
  router.post(`${BASE}/subscription/`, subscriptions.create);
  router.get(`${BASE}/subscription/:id/`, subscriptions.get);
  router.patch(`${BASE}/subscription/:id/`, subscriptions.update);
  router.delete(`${BASE}/subscription/:id/`, subscriptions.remove);
  router.get(`${BASE}/subscription/:id/creators/`, subscriptions.listCreators);
  router.post(`${BASE}/subscription/:id/creators/`, subscriptions.postCreators);
  router.get(`${BASE}/subscription/:id/details/`, subscriptions.details);
  router.get(`${BASE}/subscription/:id/details/export/`, subscriptions.exportCsv);

  router.get(`${BASE}/campaign/`, campaigns.list);
  router.post(`${BASE}/campaign/`, campaigns.create);
  router.get(`${BASE}/campaign/:id/`, campaigns.get);
  router.patch(`${BASE}/campaign/:id/`, campaigns.update);
  router.delete(`${BASE}/campaign/:id/`, campaigns.archive);
  router.get(`${BASE}/campaign/:id/creators/`, campaigns.listCreators);
  router.post(`${BASE}/campaign/:id/creators/`, campaigns.postCreators);
  router.delete(`${BASE}/campaign/:id/creators/`, campaigns.deleteCreators);
  router.get(`${BASE}/campaign/:id/overview/`, campaigns.overview);
  router.get(`${BASE}/campaign/:id/content/`, campaigns.content);

  router.get(`${BASE}/events/`, events.listEvents);
  router.get(`${BASE}/events/:id/`, events.getEvent);
  router.get(`${BASE}/usage/`, events.usage);

  router.get('/_sandbox/listening', events.controlState);
  router.post('/_sandbox/listening/advance', events.controlAdvance, { body: 'raw' });
  router.post('/_sandbox/listening/config', events.controlConfig, { body: 'raw' });
  router.post('/_sandbox/listening/seed', events.controlSeed, { body: 'raw' });
}
