import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { loadAgent, request } from '../../../src/lib/http/undici.js';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

describe('undici, loaded module by module', () => {
  it("no source file loads undici's index at run time (it costs every request command ~40 ms of start-up)", () => {
    const files = sourceFiles(src);
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const runtime = [
        ...[...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+['"]undici['"]/gm)].map((m) => m[0]),
        // `typeof import('undici')` in a type is fine: it is erased.
        ...[...text.matchAll(/(?<!typeof\s+)import\(\s*['"]undici['"]\s*\)/g)].map((m) => m[0]),
      ];
      expect(runtime, path.relative(src, file)).toEqual([]);
    }
  });

  it('request splits the URL like undici: origin, path with query, GET by default', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const seen: { path: string; method: string }[] = [];
    agent
      .get('http://api.test:8080')
      .intercept({ path: () => true, method: () => true })
      .reply(200, (opts) => {
        seen.push({ path: opts.path, method: opts.method });
        return 'ok';
      })
      .persist();
    const res = await request(new URL('http://api.test:8080/a/b/?x=1&y=%20'), { dispatcher: agent });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('ok');
    await (await request('http://api.test:8080/plain', { dispatcher: agent, method: 'POST', body: '{}' })).body.dump();
    expect(seen).toEqual([
      { path: '/a/b/?x=1&y=%20', method: 'GET' },
      { path: '/plain', method: 'POST' },
    ]);
    await agent.close();
  });

  it('refuses a URL that is not http(s), as undici does', async () => {
    const Agent = await loadAgent();
    const agent = new Agent();
    await expect(request('ftp://example.test/file', { dispatcher: agent })).rejects.toThrow(/protocol/i);
    await agent.close();
  });
});
