import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run-cli.js';
import { sandboxEnv } from '../../helpers/sandbox.js';
import { useClockedSandbox } from './helpers.js';

/**
 * Monitoring charges said as they happen (issue 26 item 4): creating or adding creators charges the
 * day's monitoring at once (the sandbox ledger moves), and the command says what it charged and the
 * daily rate from now on; `listening usage` adds the monthly projection and the runway; a paid run's
 * terminal summary warns when the runway is under `runway-warn-days`.
 */
const sb = useClockedSandbox({ seed: 23 });
const ledger = () => sb.get().state.ledger;

describe('monitoring charges, projection and runway', () => {
  const configDir = tempConfigDir();
  const run = (argv: string[], extra: Parameters<typeof runCli>[1] = {}) =>
    runCli(argv, { env: sandboxEnv(sb.get()), configDir, ...extra });
  const handles = () =>
    sb
      .get()
      .state.creators.list('instagram')
      .slice(0, 4)
      .map((c) => c.profile.username);

  it('subscriptions create and add-creators say what was charged now and the daily rate after', async () => {
    const [a, b, c] = handles();
    const used = ledger().usedMilli;
    const created = await run([
      'listening',
      'subscriptions',
      'create',
      '--name',
      'charges',
      '--platform',
      'instagram',
      a!,
      b!,
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(ledger().usedMilli - used).toBe(600);
    expect(created.stderr).toContain(
      "Charged 0.6 credits now for today's monitoring; from now on 0.6 credits a day for 2 monitored creators (18 credits a month); the balance covers",
    );
    const id = String(created.json<{ id: number }>().id);

    const usedBefore = ledger().usedMilli;
    const added = await run([
      'listening',
      'subscriptions',
      'add-creators',
      id,
      '--platform',
      'instagram',
      c!,
      a!,
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(ledger().usedMilli - usedBefore).toBe(300);
    expect(added.stderr).toContain(
      "Charged 0.3 credits now for today's monitoring; from now on 0.9 credits a day for 3 monitored creators (27 credits a month)",
    );

    // A creator already paid for today costs nothing now.
    const again = await run([
      'listening',
      'campaigns',
      'create',
      '--name',
      'same',
      '--days',
      '3',
      '--platform',
      'instagram',
      a!,
      '--json',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      'Nothing charged now (these creators were already paid for today); from now on 0.9 credits a day for 3 monitored creators',
    );
  });

  it('listening usage: daily charge, monthly projection and runway', async () => {
    const balance = ledger().balanceMilli;
    const res = await run(['listening', 'usage', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json()).toMatchObject({
      monitored_creators: 3,
      daily_credits: 0.9,
      monthly_projected_credits: 27,
      credits_available: balance / 1000,
      runway_days: Math.floor(balance / 900),
    });
  });

  it('a paid run on a terminal warns when the runway is under runway-warn-days (default 7), and not otherwise', async () => {
    // The 3 creators monitored by the tests above cost 0.9 a day: 2.5 credits cover 2 days.
    ledger().balanceMilli = 2_500;
    const [, , , d] = handles();
    const paid = await run(
      ['enrich', 'handle', d!, '--platform', 'instagram', '--mode', 'raw', '--format', 'json', '--no-color'],
      { stderrTTY: true },
    );
    expect(paid.code, paid.stderr).toBe(0);
    // Broken at spaces on the 100-column terminal: read as one.
    expect(paid.stderr.split('\n').join(' ')).toMatch(
      /warning: Monitoring costs 0\.9 credits a day and the balance \(2\.\d+ credits\) covers 2 days, under runway-warn-days 7: top up/,
    );
    // Piped: no summary, no warning.
    const piped = await run([
      'enrich',
      'handle',
      d!,
      '--platform',
      'instagram',
      '--mode',
      'raw',
      '--max-age',
      '0',
      '--format',
      'json',
    ]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).not.toContain('Monitoring costs');
    // A lower threshold: no warning.
    expect((await run(['config', 'set', 'runway-warn-days', '2'])).code).toBe(0);
    const calm = await run(
      ['enrich', 'handle', d!, '--platform', 'instagram', '--mode', 'raw', '--max-age', '0', '--format', 'json'],
      { stderrTTY: true },
    );
    expect(calm.code, calm.stderr).toBe(0);
    expect(calm.stderr).not.toContain('Monitoring costs');
    ledger().balanceMilli = 1_000_000;
  });
});
