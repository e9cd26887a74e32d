import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { forwardEvent } from '../../../src/lib/events/forward.js';

/**
 * Servers that break the connection in the ways undici reports with its own codes: the user reads plain
 * words, `--debug` keeps the raw cause.
 */
type Behaviour = (socket: Socket) => void;

const behaviours: Record<string, Behaviour> = {
  // Headers and part of the body, then the socket is destroyed (undici: UND_ERR_SOCKET, "other side closed").
  'closes mid-response': (socket) => {
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"credits_');
    setImmediate(() => socket.destroy());
  },
  // A TCP reset as soon as the request arrives (ECONNRESET).
  'resets the connection': (socket) => socket.resetAndDestroy(),
  // Closed without a byte of answer (UND_ERR_SOCKET).
  'closes before answering': (socket) => socket.end(),
};

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function breakingServer(behaviour: Behaviour): Promise<string> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => behaviour(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a connection that breaks is reported in plain words', () => {
  it.each(Object.keys(behaviours))('a server that %s: GET and POST, text and JSON, no undici code', async (name) => {
    const host = await breakingServer(behaviours[name] as Behaviour);
    const env = { CREATORS_BASE_URL: `http://${host}`, CREATORS_API_KEY: 'sbx_words' };
    const expected = name === 'resets the connection' ? 'was reset' : 'closed';
    const sentence = new RegExp(
      `^error: The connection to ${host.replace(/\./g, '\\.')} ${expected} before the response was complete\\.\\n`,
    );

    const get = await runCli(['credits', '--retries', '0'], { env });
    expect(get.code).toBe(1);
    expect(get.stderr).toMatch(sentence);

    const post = await runCli(['enrich', 'handle', 'a', '--platform', 'instagram', '--mode', 'raw', '--yes'], { env });
    expect(post.code).toBe(1);
    expect(post.stderr).toMatch(sentence);
    // A POST that may have reached the server still says so.
    expect(post.stderr).toContain('may have been processed (and charged)');

    const json = await runCli(['credits', '--retries', '0', '--json'], { env });
    expect(json.code).toBe(1);
    const error = json.errorJson().error;
    expect(error.code).toBe(name === 'resets the connection' ? 'connection_reset' : 'connection_closed');
    expect(error.message).toMatch(/^The connection to /);

    for (const res of [get, post, json]) {
      expect(res.stderr).not.toMatch(/UND_ERR|ECONNRESET|other side closed|Network error/i);
      expect(res.stdout).toBe('');
    }
  });

  it('--debug keeps the raw cause in the log', async () => {
    const host = await breakingServer(behaviours['closes mid-response'] as Behaviour);
    const res = await runCli(['credits', '--retries', '0', '--debug'], {
      env: { CREATORS_BASE_URL: `http://${host}`, CREATORS_API_KEY: 'sbx_words' },
    });
    expect(res.code).toBe(1);
    // A GET goes through node:http (ECONNRESET "aborted", as Node says a closed connection), a POST through undici.
    expect(res.stderr).toMatch(/\[debug\] ! GET \S+ failed after \d+ ms: ECONNRESET \(aborted\)/);
    expect(res.stderr).toMatch(/^error: The connection to .* closed before the response was complete\.$/m);
    const post = await runCli(
      ['enrich', 'handle', 'a', '--platform', 'instagram', '--mode', 'raw', '--yes', '--debug'],
      { env: { CREATORS_BASE_URL: `http://${host}`, CREATORS_API_KEY: 'sbx_words' } },
    );
    expect(post.code).toBe(1);
    expect(post.stderr).toMatch(/\[debug\] ! POST \S+ failed after \d+ ms: UND_ERR_SOCKET \(other side closed\)/);
    expect(res.stderr).toMatch(/^error: The connection to .* closed before the response was complete\.$/m);
  });
});

describe('events tail --forward-to: a receiver that breaks the connection', () => {
  it('each retry line and the final error say it in plain words', async () => {
    const host = await breakingServer(behaviours['closes before answering'] as Behaviour);
    const retries: string[] = [];
    const error = await forwardEvent(
      new URL(`http://${host}/hook`),
      { id: 7 },
      { sleep: async () => {}, onRetry: (m) => retries.push(m) },
      { attempts: 2 },
    ).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error?.message).toBe(
      `Could not forward event 7 to http://${host}/hook: the connection to ${host} closed before the response was complete after 2 attempts.`,
    );
    expect(retries).toEqual([
      `forward of event 7 to http://${host} failed (the connection to ${host} closed before the response was complete); attempt 2 of 2 in 1 s`,
    ]);
  });
});
