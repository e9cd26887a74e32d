import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const sb = useSandbox();

describe('creators sandbox flags', () => {
  it.each([
    [['--port', '70000'], /^error: Invalid --port '70000': expected 0 \(any free port\) to 65535\./],
    [['--port', '-1'], /^error: Invalid --port '-1'/],
    [['--page-base', '2'], /^error: Invalid --page-base '2': expected 0 or 1\./],
    [['--credits', 'lots'], /^error: Invalid --credits 'lots'/],
    [['--latency', 'search=1s'], /^error: Invalid --latency: unknown route family 'search'/],
  ])('%j is a usage error (exit 2)', async (flags, message) => {
    const res = await runCli(['sandbox', ...flags]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it('a port already in use is a usage error, not an unexpected one', async () => {
    const port = new URL(sb.get().url).port;
    const res = await runCli(['sandbox', '--port', port]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`^error: Port ${port} is already in use\\.`));
  });
});

describe('creators sandbox output', () => {
  /** Ctrl-C already pressed: the sandbox starts, prints how to reach it, and stops. */
  const stopped = (): AbortSignal => AbortSignal.abort();

  it('piped, prints one JSON line {base_url, api_key}, then stops on Ctrl-C (exit 0)', async () => {
    const res = await runCli(['sandbox'], { signal: stopped() });
    expect(res.code).toBe(0);
    const line = JSON.parse(res.stdout) as { base_url: string; api_key: string };
    expect(line.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(typeof line.api_key).toBe('string');
    expect(res.stderr).toBe('Sandbox stopped.\n');
  });

  it('on a terminal, says how to use it, and lists the faults', async () => {
    const res = await runCli(['sandbox', '--seed', '7', '--faults', '503 GET * p=0.2'], {
      signal: stopped(),
      tty: true,
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /^Sandbox API listening on http:\/\/127\.0\.0\.1:\d+\n\n {2}export CREATORS_BASE_URL=http:\/\/127\.0\.0\.1:\d+\n {2}export CREATORS_API_KEY=\S+\n\nSeed 7, 300 requests\/minute, 1,000 credits\. Press Ctrl-C to stop\.\nFaults \(counts at http:\/\/127\.0\.0\.1:\d+\/_sandbox\/faults\):\n {2}\S/,
    );
  });

  it('the banner counts in words: 1 credit, 1 request/minute', async () => {
    const res = await runCli(['sandbox', '--credits', '1', '--rate-limit', '1'], { signal: stopped(), tty: true });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Seed 42, 1 request/minute, 1 credit. Press Ctrl-C to stop.');
    const dry = await runCli(['sandbox', '--credits', '1', '--rate-limit', '1', '--dry-run'], { tty: true });
    expect(dry.stdout).toContain('(seed 42, 1 request a minute, 1 credit, page base 0)');
  });

  it('-o writes the JSON line to a file and nothing to stdout', async () => {
    const file = join(tempDir('creators-sandbox-'), 'sandbox.json');
    const res = await runCli(['sandbox', '-o', file], { signal: stopped() });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object)).toEqual(['base_url', 'api_key']);
  });

  it('an invalid --faults spec is a usage error (exit 2)', async () => {
    const res = await runCli(['sandbox', '--faults', 'nonsense-kind'], { signal: stopped() });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: Invalid --faults: /);
  });
});

describe('creators sandbox --dry-run', () => {
  it('starts nothing and says what would listen, with which settings', async () => {
    const res = await runCli([
      'sandbox',
      '--port',
      '0',
      '--credits',
      '5',
      '--faults',
      '503 GET * count=1',
      '--dry-run',
      '--json',
    ]);
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({
      dry_run: true,
      listen: '127.0.0.1:any free port',
      credits: 5,
      seed: 42,
      faults: [expect.stringContaining('503')],
    });
    const text = await runCli(['sandbox', '--port', '8787', '--dry-run'], { tty: true });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^Dry run: no sandbox was started\.\nIt would listen on 127\.0\.0\.1:8787 \(seed 42, 300 requests a minute, 1,000 credits, page base 0\)\.\n$/,
    );
  });

  it('shows the latency model it would apply (--latency real is a named preset)', async () => {
    const res = await runCli(['sandbox', '--latency', 'enrich=2s±1,default=150ms', '--dry-run', '--json']);
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ latency: 'enrich=2s±1s,default=150ms' });
    const real = await runCli(['sandbox', '--latency', 'real', '--dry-run'], { tty: true });
    expect(real.stderr + real.stdout).toMatch(
      /latency discovery=1\.2s±500ms,.*enrich=2s±1s,.*default=150ms±50ms\)\.\n$/,
    );
  });
});
