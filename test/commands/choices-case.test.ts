/**
 * One rule for case in choices (lib/options.ts matchChoice): a flag's choices, platforms, formats, shells,
 * dictionary kinds and event types match in any case and are sent as spelled in the contract; an
 * unknown value is still refused (exit 2) with the choices named.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: 3 });
type Plan = { url: string; body: Record<string, unknown> };

describe('choices match in any case, as --platform always did', () => {
  it('--mode RAW is raw, as --platform INSTAGRAM is instagram; --format JSON is json', async () => {
    const res = await runCli(
      ['enrich', 'handle', 'noah_paws', '--platform', 'INSTAGRAM', '--mode', 'RAW', '--format', 'JSON', '--dry-run'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(res.code, res.stderr).toBe(0);
    const plan = res.json<Plan>();
    expect(plan.url).toMatch(/\/creators\/enrich\/handle\/raw\/$/);
    expect(plan.body.platform).toBe('instagram');
  });

  it('post --kind Comments, spend --by Day, completion BASH, dict YT-Topics, events list --type NEW_POST', async () => {
    const post = await runCli(['post', 'Cx', '--platform', 'instagram', '--kind', 'Comments', '--dry-run', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(post.code, post.stderr).toBe(0);
    expect(post.json<Plan>().body.content_type).toBe('comments');
    const spend = await runCli(['spend', '--by', 'Day', '--json'], { env: sandboxEnv(sb.get()) });
    expect(spend.code, spend.stderr).toBe(0);
    const completion = await runCli(['completion', 'BASH']);
    expect(completion.code).toBe(0);
    expect(completion.stdout).toContain('complete -');
    const dict = await runCli(['dict', 'YT-Topics', '--json'], { env: sandboxEnv(sb.get()) });
    expect(dict.code, dict.stderr).toBe(0);
    expect(dict.json<{ name: string }[]>().map((t) => t.name)).toContain('Music');
    const events = await runCli(['events', 'list', '--type', 'NEW_POST', '--dry-run', '--json'], {
      env: sandboxEnv(sb.get()),
    });
    expect(events.code, events.stderr).toBe(0);
    expect(events.stdout).toContain('event_type=new_post');
  });

  it('an unknown value is still refused, naming the choices', async () => {
    const mode = await runCli(
      ['enrich', 'handle', 'noah_paws', '--platform', 'instagram', '--mode', 'RAWX', '--dry-run'],
      { env: sandboxEnv(sb.get()) },
    );
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('Allowed choices are raw, profile, analytics, full.');
    const format = await runCli(['credits', '--format', 'XML'], { env: sandboxEnv(sb.get()) });
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("Unknown format 'XML'");
  });
});
