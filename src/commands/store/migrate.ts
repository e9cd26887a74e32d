import { defineCommand } from '../../app/command.js';

/**
 * `creators store migrate`: brings the store's schema to this version's. A team store (PostgreSQL) is
 * changed only by this command, once for the team (safe to run again, and by two at once); an SQLite
 * file migrates itself when opened, so here it is only opened. `--dry-run` says what would change.
 */
export default defineCommand({
  name: 'migrate',
  description: "Bring the store's schema to this version (required once for a team store; safe to run again)",
  examples: [
    ['creators store migrate', 'after setting up or upgrading a team store'],
    ['creators store migrate --dry-run', 'the schema found and the one this version needs; nothing changes'],
  ],
  async run(ctx) {
    const [{ printItem }, { migrateStore }] = await Promise.all([import('../../lib/output/index.js'), import('../../lib/store/open.js')]);
    const location = await ctx.store.location();
    const done = await migrateStore(await ctx.store.openOptions({ dryRun: ctx.dryRun }));
    const record = { store: location, engine: done.engine, from: done.from, to: done.to, ...(ctx.dryRun ? { dry_run: true } : {}) };
    const output = ctx.dryRun ? await ctx.dryRunOutput() : await ctx.output();
    await printItem(ctx.term, output, record, [
      { path: 'store', header: 'Store', keep: true },
      { path: 'engine', header: 'Engine' },
      { path: 'from', header: 'Schema found' },
      { path: 'to', header: ctx.dryRun ? 'Schema needed' : 'Schema now' },
    ]);
    if (ctx.dryRun) ctx.notice(done.from === done.to ? 'Dry run: the store is up to date; nothing would change.' : `Dry run: nothing was changed; the store would go from schema ${done.from} to ${done.to}.`);
    else ctx.notice(done.from === done.to ? `The store is up to date (schema ${done.to}).` : `Migrated the store from schema ${done.from} to ${done.to}.`);
  },
});
