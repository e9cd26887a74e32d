import { describe, expect, it } from 'vitest';
import { configure } from '../../src/sandbox/state.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { sandboxEnv } from '../helpers/sandbox.js';
import { call, L, subscribe, useClockedSandbox } from './listening/helpers.js';

/** Hints that send the user the right way (issue 26 item 9; `batch run` paused for credits: batch/run.test.ts). */
const sb = useClockedSandbox({ seed: 17 });

describe('hints', () => {
  it('a 400 about the first page number points at the page-base setting', async () => {
    configure(sb.get().state, { pageBase: 1 });
    try {
      const res = await runCli(['search', '--platform', 'instagram', '--limit', '5'], {
        env: sandboxEnv(sb.get()),
        configDir: tempConfigDir(),
      });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/HTTP 400/);
      expect(res.stderr).toContain('creators config set page-base 1');
      // With the setting, the same search works.
      const set = await runCli(['search', '--platform', 'instagram', '--limit', '5', '--json'], {
        env: sandboxEnv(sb.get(), { CREATORS_PAGE_BASE: '1' }),
        configDir: tempConfigDir(),
      });
      expect(set.code, set.stderr).toBe(0);
    } finally {
      configure(sb.get().state, { pageBase: 0 });
    }
  });

  it('a 400 about something else has no page-base hint', async () => {
    const res = await runCli(
      ['api', 'discovery', '-X', 'POST', '-f', 'platform=instagram', '-f', 'paging.limit=5000'],
      { env: sandboxEnv(sb.get()), configDir: tempConfigDir() },
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/HTTP 400/);
    expect(res.stderr).not.toContain('page-base');
  });

  it('events list past the last page says how many pages there are', async () => {
    const s = sb.get();
    await subscribe(
      s,
      'hints',
      s.state.creators
        .list('instagram')
        .slice(0, 5)
        .map((c) => c.profile.username),
    );
    sb.advance(3 * 86_400_000);
    const count = Number((await call(s, 'GET', `${L}/events/?page_size=1`)).body.count);
    expect(count).toBeGreaterThan(20);
    const pages = Math.ceil(count / 20);
    const res = await runCli(['events', 'list', '--page', String(pages + 3), '--page-size', '20'], {
      env: sandboxEnv(s),
      configDir: tempConfigDir(),
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(
      `Page ${pages + 3} is past the last page: ${count.toLocaleString('en-US')} events make ${pages} pages of 20.`,
    );
    expect(res.stderr).toContain(`Use --page 1 to ${pages}`);
  });
});
