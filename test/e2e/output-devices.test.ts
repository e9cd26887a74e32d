import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/spawn-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

/** End-to-end (run `npm run build` first): `-o /dev/stdout` into a pipe is written through the pipe, as `>` would. */
const sb = useSandbox({ seed: 5 });

describe('-o /dev/stdout', () => {
  it('writes the data down the pipe that is stdout, exit 0, nothing else on stderr', async () => {
    const env = { ...sandboxEnv(sb.get()), CREATORS_CONFIG_DIR: tempDir('creators-e2e-cfg-') };
    const plain = await spawnCli(['dict', 'languages', '--json'], env);
    const res = await spawnCli(['dict', 'languages', '--json', '-o', '/dev/stdout'], env);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(JSON.parse(plain.stdout));
  });
});
