/**
 * `listening campaigns content` reads every page of the feed: pages of 100 (the most the service gives),
 * not the server's default of 10, and a progress line on a terminal while the pages come, as `events list
 * --all` shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.js';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { sandboxEnv, type StartedSandbox } from '../../helpers/sandbox.js';
import { call, L, START } from './helpers.js';

let clock = START;
const requests: string[] = [];
let sb: StartedSandbox;
let id = '';
let total = 0;

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 5,
    now: () => clock,
    log: (line) => (line.includes('/content/') ? requests.push(line) : undefined),
  });
  const handles = sb.state.creators
    .list('instagram')
    .slice(0, 1)
    .map((c) => `instagram:${c.profile.username}`);
  const made = await call(sb, 'POST', `${L}/campaign/`, { name: 'Feed', days: 60, creators: handles });
  id = String(made.body.id);
  clock += 3 * 86_400_000;
  total = Number((await call(sb, 'GET', `${L}/campaign/${id}/content/?page_size=1`)).body.count);
});
afterAll(async () => {
  await sb?.close();
});

describe('listening campaigns content', () => {
  it('pages of 100: every post once, a request per 100 posts', async () => {
    expect(total).toBeGreaterThan(150);
    requests.length = 0;
    const res = await runCli(['listening', 'campaigns', 'content', id, '--format', 'jsonl'], {
      env: sandboxEnv(sb),
      configDir: tempConfigDir(),
    });
    expect(res.code, res.stderr).toBe(0);
    const posts = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { post_id: string });
    expect(posts).toHaveLength(total);
    expect(new Set(posts.map((p) => p.post_id)).size).toBe(total);
    expect(requests).toHaveLength(Math.ceil(total / 100));
    expect(requests.every((r) => r.includes('page_size=100'))).toBe(true);
    // Piped stderr gets no progress line.
    expect(res.stderr).not.toMatch(/content: /);
  });

  it('on a terminal, to a file: a progress line of pages and posts of the count, no credits', async () => {
    const dir = tempConfigDir();
    const res = await runCli(['listening', 'campaigns', 'content', id, '--format', 'jsonl', '-o', 'posts.jsonl'], {
      env: sandboxEnv(sb),
      configDir: tempConfigDir(),
      stderrTTY: true,
      cwd: dir,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(new RegExp(`\\r\\x1b\\[2Kcontent: 1 page, 100/${total.toLocaleString('en-US')} posts`));
    expect(res.stderr).not.toMatch(/credit/);
  });
});
