import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { useSandbox } from '../../helpers/sandbox.js';

const sb = useSandbox();

describe('creators sandbox flags', () => {
  it.each([
    [['--port', '70000'], /^error: Invalid --port '70000': expected 0 \(any free port\) to 65535\./],
    [['--port', '-1'], /^error: Invalid --port '-1'/],
    [['--page-base', '2'], /^error: Invalid --page-base '2': expected 0 or 1\./],
    [['--credits', 'lots'], /^error: Invalid --credits 'lots'/],
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
