/**
 * Ctrl-C while a billable request is on the wire: the client finishes it and the result is printed (it was
 * paid for), but the run was stopped, so the exit is 130, never 0: a script under `set -e` must not carry
 * on as if the command had completed. The sandbox, which Ctrl-C normally ends, still exits 0.
 */
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';
import { runCli } from '../helpers/run-cli.js';

/** Ctrl-C pressed the moment the service receives the request (its answer is still to come). */
function ctrlCOnArrival<T extends object>(
  body: T,
): { signal: AbortSignal; reply: () => { statusCode: number; data: T; responseOptions: typeof JSON_HEADERS } } {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    reply: () => {
      controller.abort();
      return { statusCode: 200, data: body, responseOptions: JSON_HEADERS };
    },
  };
}

describe('Ctrl-C while a request already sent finishes', () => {
  it('search: the page paid for is printed, and the exit is 130 with one line saying what happened', async () => {
    const { agent, pool, env } = mockApi();
    const ctrlC = ctrlCOnArrival({
      accounts: [{ user_id: '1', username: 'kept_one', followers: 10 }],
      total: 1,
      credits_cost: 0.01,
    });
    pool.intercept({ path: '/public/v1/discovery/', method: 'POST' }).reply(ctrlC.reply).delay(200);
    const res = await runCli(['search', '--platform', 'instagram', '--json'], {
      env,
      dispatcher: agent,
      signal: ctrlC.signal,
    });
    expect(res.code).toBe(130);
    expect((res.json() as Array<{ username: string }>).map((r) => r.username)).toEqual(['kept_one']);
    expect(res.stderr).toContain('Waiting for the request already sent to finish');
    expect(res.stderr).toContain(
      'Interrupted. What was already sent was finished and its result printed; nothing else was started.',
    );
  });

  it('enrich handle (one value): the record is printed, exit 130', async () => {
    const { agent, pool, env } = mockApi();
    const ctrlC = ctrlCOnArrival({ result: { instagram: { username: 'kept_two' } }, credits_cost: 1 });
    pool
      .intercept({ path: /\/public\/v1\/creators\/enrich\/handle\//, method: 'POST' })
      .reply(ctrlC.reply)
      .delay(200);
    const res = await runCli(['enrich', 'handle', 'kept_two', '--platform', 'instagram', '--json'], {
      env,
      dispatcher: agent,
      signal: ctrlC.signal,
    });
    expect(res.code).toBe(130);
    expect(res.stdout).toContain('kept_two');
    expect(res.stderr).toContain('Interrupted.');
  });

  it('a command Ctrl-C did not touch exits 0', async () => {
    const { agent, pool, env } = mockApi();
    pool
      .intercept({ path: '/public/v1/discovery/', method: 'POST' })
      .reply(200, { accounts: [], total: 0 }, JSON_HEADERS);
    const res = await runCli(['search', '--platform', 'instagram', '--json'], { env, dispatcher: agent });
    expect(res.code).toBe(0);
  });
});
