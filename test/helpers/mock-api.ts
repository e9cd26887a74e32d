import { MockAgent } from 'undici';

export const API = 'https://api.test';
export const KEY = 'sk_test_0123456789abcdef';

/** A MockAgent that refuses real connections; `pool` intercepts requests to the fake API origin. */
export function mockApi(): { agent: MockAgent; pool: ReturnType<MockAgent['get']>; env: Record<string, string> } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(API);
  return { agent, pool, env: { CREATORS_BASE_URL: API, CREATORS_API_KEY: KEY } };
}

export const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
