import { execFileSync } from 'node:child_process';
import { closeSync, createReadStream, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSON_HEADERS, mockApi } from '../helpers/mock-api.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

/**
 * `-o` onto something that is not a regular file (a device, a FIFO, a descriptor path) is written
 * through in place, never renamed over: replacing a device node as root would replace the system's
 * device, and a FIFO's reader would get nothing. Devices are made with mknod in a temp folder (root
 * only); never the system's own /dev nodes.
 */
const sb = useSandbox({ seed: 3 });
const env = () => sandboxEnv(sb.get());

const notRoot = process.getuid?.() !== 0 ? 'mknod needs root' : undefined;

/** A character device `major:minor` (1:3 is null, 1:7 is full) named `name` in a new folder. */
function device(name: string, major: number, minor: number): { dir: string; path: string } {
  const dir = tempDir('creators-dev-');
  const path = join(dir, name);
  execFileSync('mknod', ['-m', '666', path, 'c', String(major), String(minor)]);
  return { dir, path };
}

function fifo(): { dir: string; path: string } {
  const dir = tempDir('creators-fifo-');
  const path = join(dir, 'p');
  execFileSync('mkfifo', [path]);
  return { dir, path };
}

/** Everything a reader of the FIFO gets until its writer closes it. */
function readAll(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    createReadStream(path, { encoding: 'utf8' })
      .on('data', (c) => (text += c as string))
      .on('end', () => resolve(text))
      .on('error', reject);
  });
}

describe('-o onto a device, a FIFO or a descriptor path', () => {
  it.skipIf(notRoot)(
    `a character device (null) is written through and stays a device, exit 0 ${notRoot ? `(skipped: ${notRoot})` : ''}`,
    async () => {
      const { dir, path } = device('n', 1, 3);
      const res = await runCli(['dict', 'languages', '-o', path], { env: env() });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      const st = statSync(path);
      expect(st.isCharacterDevice()).toBe(true);
      expect(st.mode & 0o777).toBe(0o666);
      expect(readdirSync(dir)).toEqual(['n']);
    },
  );

  it.skipIf(notRoot)(
    `a device that refuses writes (full) fails the command as stdout does: exit 1, one clear line ${notRoot ? `(skipped: ${notRoot})` : ''}`,
    async () => {
      const { dir, path } = device('f', 1, 7);
      const res = await runCli(['dict', 'languages', '-o', path], { env: env() });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`Cannot write ${path}: no space left on device.`);
      expect(res.stderr).not.toMatch(/at .*\.ts:\d+/);
      expect(statSync(path).isCharacterDevice()).toBe(true);
      expect(readdirSync(dir)).toEqual(['f']);
    },
  );

  it('a FIFO: its reader gets the whole output, and the FIFO stays a FIFO', async () => {
    const { dir, path } = fifo();
    const reading = readAll(path);
    const res = await runCli(['dict', 'languages', '-o', path, '--json'], { env: env() });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const got = JSON.parse(await reading) as unknown[];
    expect(Array.isArray(got)).toBe(true);
    expect(got.length).toBeGreaterThan(0);
    expect(statSync(path).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['p']);
  });

  it('/dev/fd/N (bash `>(cmd)`, `3>>log`): written through the descriptor, appended, the file not replaced', async () => {
    const dir = tempDir('creators-fd-');
    const log = join(dir, 'log.json');
    const fd = openSync(log, 'a');
    try {
      const before = statSync(log).ino;
      const res = await runCli(['dict', 'languages', '-o', `/dev/fd/${fd}`, '--json'], { env: env() });
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(statSync(log).ino).toBe(before);
      expect((JSON.parse(readFileSync(log, 'utf8')) as unknown[]).length).toBeGreaterThan(0);
      expect(readdirSync(dir)).toEqual(['log.json']);
    } finally {
      closeSync(fd);
    }
  });

  it('a socket cannot be written: exit 2 before anything is sent, naming what it is', async () => {
    const dir = tempDir('creators-sock-');
    const path = join(dir, 's');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const { agent, env: mockEnv } = mockApi({ recorder: true });
      const res = await runCli(['dict', 'languages', '-o', path], { env: mockEnv, dispatcher: agent });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/socket/);
      expect(statSync(path).isSocket()).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a batch download into a FIFO streams the bytes through (no restart in a fresh file)', async () => {
    const { dir, path } = fifo();
    const { agent, pool, env: mockEnv } = mockApi();
    pool
      .intercept({ path: '/public/v1/enrichment/batch/bch_1/download/', method: 'GET' })
      .reply(200, { download_url: 'https://api.test/files/r.csv' }, JSON_HEADERS);
    pool
      .intercept({ path: '/files/r.csv', method: 'GET' })
      .reply(200, 'handle,status\na,ok\n', { headers: { 'content-type': 'text/csv' } });
    const reading = readAll(path);
    const res = await runCli(['batch', 'download', 'bch_1', '-o', path], { env: mockEnv, dispatcher: agent });
    expect(res.code).toBe(0);
    expect(await reading).toBe('handle,status\na,ok\n');
    expect(statSync(path).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['p']);
  });
});
