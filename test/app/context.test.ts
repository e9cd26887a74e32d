/**
 * The Context as a factory (src/app/context.ts): each part is built by its own file the first time a
 * command asks for it, and kept; a part nobody asks for is never built, so its errors never surface.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/app/context.js';
import type { Deps } from '../../src/app/deps.js';
import type { GlobalOptions } from '../../src/app/global-options.js';
import { UsageError } from '../../src/lib/errors.js';
import { tempDir } from '../helpers/temp.js';

function deps(env: Record<string, string | undefined> = {}): Deps {
  const dir = tempDir('creators-ctx-');
  return {
    io: {
      stdin: Readable.from([]),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      columns: 100,
    },
    env: { HOME: '/nonexistent-home', CREATORS_BASE_URL: 'http://127.0.0.1:9', ...env },
    cwd: dir,
    now: () => Date.parse('2026-11-22T10:00:00Z'),
    sleep: async () => undefined,
    configDir: join(dir, 'config'),
    platform: 'linux',
  };
}

describe('the Context (a factory of parts built on first ask)', () => {
  it('gives the same part on every ask: one terminal, config, store, money gate, client and output settings a run', async () => {
    const ctx = createContext(deps(), { json: true });
    expect(ctx.term).toBe(ctx.term);
    expect(ctx.config).toBe(ctx.config);
    expect(ctx.store).toBe(ctx.store);
    expect(ctx.money).toBe(ctx.money);
    const client = await ctx.http();
    expect(await ctx.http()).toBe(client);
    expect(client.baseUrl.href).toBe('http://127.0.0.1:9/');
    const output = await ctx.output();
    expect(await ctx.output()).toBe(output);
    expect(output.format).toBe('json');
  });

  it('builds only what is asked for: the output settings of a run whose key file is empty and answer cap unreadable', async () => {
    const d = deps({ CREATORS_MAX_RESPONSE_MB: 'lots' });
    const keyFile = join(d.cwd, 'key.txt');
    writeFileSync(keyFile, '');
    const globals: GlobalOptions = { apiKeyFile: keyFile, format: 'csv' };
    const ctx = createContext(d, globals);
    // The output part reads neither the credential nor the client's settings.
    expect((await ctx.output()).format).toBe('csv');
    // Each of the other two fails when asked, with its own usage error, and again on the next ask.
    const credential = ctx.credential();
    await expect(credential).rejects.toThrow(UsageError);
    await expect(credential).rejects.toThrow(`--api-key-file '${keyFile}' is empty.`);
    await expect(ctx.http()).rejects.toThrow("Invalid CREATORS_MAX_RESPONSE_MB 'lots'");
    await expect(ctx.http()).rejects.toThrow("Invalid CREATORS_MAX_RESPONSE_MB 'lots'");
  });
});
