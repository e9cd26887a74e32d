import { MockAgent } from 'undici';
import { onTestFinished } from 'vitest';

export const API = 'https://api.test';
export const KEY = 'sk_test_0123456789abcdef';

/**
 * A MockAgent that refuses real connections; `pool` intercepts requests to the fake API origin. Call it
 * inside a test: when the test ends, every interceptor it set up must have been used (an expected request
 * that was never sent fails the test, as cli/cli's httpmock `Verify` does). `recorder: true` is for a
 * persistent catch-all interceptor that records calls, where "no call at all" is what the test asserts.
 */
export function mockApi(options: { recorder?: boolean } = {}): {
  agent: MockAgent;
  pool: ReturnType<MockAgent['get']>;
  env: Record<string, string>;
} {
  const agent = new MockAgent();
  agent.disableNetConnect();
  onTestFinished(({ task }) => {
    // A test that already failed keeps its own message.
    if (task.result?.state !== 'fail' && !options.recorder) agent.assertNoPendingInterceptors();
  });
  const pool = agent.get(API);
  return { agent, pool, env: { CREATORS_BASE_URL: API, CREATORS_API_KEY: KEY } };
}

export const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };

/**
 * Runs the CLI against a MockAgent with no interceptors and expects exit 2: any request would have
 * failed, so the usage error proves nothing was sent. Returns stderr.
 */
export async function refusedBeforeSending(argv: string[], stdin?: string): Promise<string> {
  const { runCli } = await import('./run-cli.js');
  const { agent, env } = mockApi();
  const res = await runCli(argv, { env, dispatcher: agent, stdin });
  if (res.code !== 2) throw new Error(`expected exit 2 before sending, got ${res.code}: ${res.stderr}`);
  return res.stderr;
}
