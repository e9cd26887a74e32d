import { defineCommand } from '../../app/command.js';
import type { DoctorAction } from '../../lib/store/views.js';
import type { SharedEntry } from '../../lib/store/types.js';

/**
 * `creators store doctor`: every claim (a purchase in flight), run reservation (a budget's hold) and pace the
 * store shares, with its holder's state, and the stuck ones cleared: a dead process, a holder on another host
 * silent too long, a time a wrong clock wrote ahead. Runs take these over on their own when they meet them;
 * doctor shows them and clears them now. `--all` clears live ones too (asking first): a stopped run's claim
 * never expires under it, by design.
 */
export default defineCommand({
  name: 'doctor',
  description:
    'Show the claims, reservations and pace runs share in the store, and clear the stuck ones (--dry-run: only show)',
  flags: {
    all: {
      flags: '--all',
      description:
        "clear live ones too, asking first (never this process's own): a run stopped with Ctrl-Z holds its claims while it lives",
    },
  },
  examples: [
    ['creators store doctor --dry-run', 'what is shared, and what would be cleared; nothing changes'],
    ['creators store doctor', 'clear what dead or silent runs and wrong clocks left behind'],
    ['creators store doctor --json', 'every entry as a record (full ids, state, why, seconds)'],
    ['creators store doctor --all --yes', 'also clear live holders (a run stopped for good)'],
  ],
  async run(ctx, { flags }) {
    const [{ hostname }, { printList, plural }, views] = await Promise.all([
      import('node:os'),
      import('../../lib/output/index.js'),
      import('../../lib/store/views.js'),
    ]);
    const location = await ctx.store.location();
    const reader = await ctx.store.local();
    if (!reader) {
      ctx.term.notice(`No store yet at ${location}: nothing is claimed, reserved or paced.`);
      return;
    }
    const store = ctx.dryRun ? reader : ((await ctx.store.local({ write: true })) ?? reader);
    // A dry run reads an older store as it is (not migrated): its claims and reservations name no liveness yet.
    const { SCHEMA_VERSION } = await import('../../lib/store/schema.js');
    const { schemaVersion } = await store.stats();
    if (schemaVersion < SCHEMA_VERSION) {
      ctx.term.notice(
        `The store ${location} is at schema ${schemaVersion} (this version reads ${SCHEMA_VERSION} for what runs share): the next run that buys, or \`creators store migrate\`, brings it up to date; nothing was changed.`,
      );
      return;
    }
    const myHost = hostname();
    // What core.doctor clears: the stuck ones, and with `all` every holder but this process.
    const clears = (e: SharedEntry, all: boolean): boolean =>
      e.state !== 'live' ||
      (all && e.holder !== undefined && !(e.holder.pid === process.pid && e.holder.host === myHost));
    let entries = await store.shared();
    let all = flags.all === true;
    let refused = false;
    if (!ctx.dryRun) {
      const live = entries.filter((e) => e.state === 'live' && clears(e, all));
      if (live.length > 0) {
        const what = live.map((e) => `${e.kind} of ${views.holderText(e.holder!, myHost)}`);
        const question = `Clear ${plural(live.length, 'live entry', 'live entries')} too (${what.join(', ')})? Its run may then buy a record twice or pass a budget.`;
        if (!(await ctx.term.confirm(question))) {
          all = false;
          refused = true;
        }
      }
      if (!refused) entries = (await store.doctor({ all })).entries;
    }
    // Ages and leads in the store's own clock (a team store's server's), not this machine's.
    const now = entries[0]?.clock ?? ctx.deps.now();
    const action = (e: SharedEntry): DoctorAction =>
      refused || !clears(e, all) ? 'kept' : ctx.dryRun ? 'would clear' : 'cleared';
    const output = ctx.dryRun ? await ctx.dryRunOutput() : await ctx.output();
    const asRow = output.format === 'table' ? views.doctorRow : views.doctorRecord;
    await printList(
      ctx.term,
      output,
      entries.map((e) => asRow(e, action(e), now, myHost)),
      views.DOCTOR_COLUMNS,
    );

    // What was done to each entry and why, in words (the table says only the state).
    const verb: Record<DoctorAction, string> = { cleared: 'Cleared', 'would clear': 'Would clear', kept: 'Kept' };
    for (const e of entries)
      if (action(e) !== 'kept' || e.state !== 'live')
        ctx.term.notice(`${verb[action(e)]} ${views.doctorLine(e, now, myHost)}.`);
    const gone = entries.filter((e) => action(e) !== 'kept').length;
    const left = entries.filter((e) => e.state === 'live' && action(e) === 'kept' && e.holder !== undefined).length;
    const leftText =
      left > 0 ? `; ${plural(left, 'live holder')} left alone (--all clears them too, asking first)` : '';
    if (entries.length === 0) ctx.term.notice(`Nothing is claimed, reserved or paced in ${location}.`);
    else if (refused) ctx.term.notice('Nothing was cleared.');
    else if (ctx.dryRun)
      ctx.term.notice(
        gone > 0
          ? `Dry run: nothing was changed; ${plural(gone, 'entry', 'entries')} would be cleared from ${location}${leftText}.`
          : `Dry run: nothing was changed; nothing is stuck in ${location}${leftText}.`,
      );
    else
      ctx.term.notice(
        gone > 0
          ? `Cleared ${plural(gone, 'entry', 'entries')} from ${location}${leftText}.`
          : `Nothing is stuck in ${location}${leftText}.`,
      );
  },
});
