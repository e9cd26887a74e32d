import { defineCommand, type ValueKind } from '../../app/command.js';
import { UsageError } from '../../lib/errors.js';

/** Role names GRANT ... TO reads as something else (PUBLIC is every role), or that cannot be a role's. */
function roleNameProblem(role: string): string | undefined {
  if (role === '') return 'expected a role name';
  if (role.includes('\0')) return 'a role name cannot hold a NUL character';
  if (Buffer.byteLength(role) > 63) return 'a role name is at most 63 bytes';
  if (/^(public|none|current_user|session_user|current_role)$/i.test(role))
    return `${role} is not a role's name in GRANT (PUBLIC means every role)`;
  if (/^pg_/i.test(role)) return 'names beginning pg_ are reserved for the server';
  return undefined;
}

/** A PostgreSQL role to grant to, as `CREATE ROLE` named it (case kept: quoted in the statements if needed). */
const ROLE_NAME: ValueKind<string> = {
  parse(raw, flag) {
    const problem = roleNameProblem(raw);
    if (problem) throw new UsageError(`Invalid ${flag} '${raw}': ${problem}.`);
    return raw;
  },
};

/**
 * `creators store migrate`: brings the store's schema to this version's. A team store (PostgreSQL) is
 * changed only by this command, once for the team (safe to run again, and by two at once); an SQLite
 * file migrates itself when opened, so here it is only opened. `--dry-run` says what would change.
 * `--print-grants` prints what a team's role needs instead, connecting to nothing.
 */
export default defineCommand({
  name: 'migrate',
  description: "Bring the store's schema to this version (required once for a team store; safe to run again)",
  flags: {
    printGrants: {
      flags: '--print-grants',
      description:
        'print the GRANT statements a team role needs to buy through the team store, and those migrate needs; changes nothing',
    },
    role: {
      flags: '--role <name>',
      description: "the role --print-grants grants to (default: the team store URL's user, else creators)",
      value: ROLE_NAME,
    },
  },
  examples: [
    ['creators store migrate', 'after setting up or upgrading a team store'],
    ['creators store migrate --dry-run', 'the schema found and the one this version needs; nothing changes'],
    ['creators store migrate --print-grants --role ci', "the SQL for the database's owner to run for the role ci"],
  ],
  async run(ctx, { flags }) {
    if (flags.role !== undefined && !flags.printGrants)
      throw new UsageError('--role names the role of --print-grants.', {
        hint: 'e.g. creators store migrate --print-grants --role ci',
      });
    if (flags.printGrants) {
      const [{ printText }, { grantStatements, migrateGrantStatements }, { isPgUrl }] = await Promise.all([
        import('../../lib/output/index.js'),
        import('../../lib/store/pg-grants.js'),
        import('../../lib/store/pg-errors.js'),
      ]);
      const { file, env } = await ctx.store.openOptions({});
      const fromUrl = isPgUrl(file)
        ? decodeURIComponent(new URL(file.trim()).username) || env?.PGUSER || undefined
        : undefined;
      const role = flags.role ?? (fromUrl && !roleNameProblem(fromUrl) ? fromUrl : 'creators');
      const text = [
        `-- To buy through the team store (run as the tables' owner, in the store's database):`,
        ...grantStatements(role),
        `-- To run creators store migrate (the first time; later ones as the tables' owner):`,
        ...migrateGrantStatements(role),
      ].join('\n');
      await printText(ctx.term, await ctx.output(), `${text}\n`);
      return;
    }
    const [{ printItem }, { migrateStore }] = await Promise.all([
      import('../../lib/output/index.js'),
      import('../../lib/store/open.js'),
    ]);
    const location = await ctx.store.location();
    const done = await migrateStore(await ctx.store.openOptions({ dryRun: ctx.dryRun }));
    const record = {
      store: location,
      engine: done.engine,
      from: done.from,
      to: done.to,
      ...(ctx.dryRun ? { dry_run: true } : {}),
    };
    const output = ctx.dryRun ? await ctx.dryRunOutput() : await ctx.output();
    await printItem(ctx.term, output, record, [
      { path: 'store', header: 'Store', keep: true },
      { path: 'engine', header: 'Engine' },
      { path: 'from', header: 'Schema found' },
      { path: 'to', header: ctx.dryRun ? 'Schema needed' : 'Schema now' },
    ]);
    if (ctx.dryRun)
      ctx.term.notice(
        done.from === done.to
          ? 'Dry run: the store is up to date; nothing would change.'
          : `Dry run: nothing was changed; the store would go from schema ${done.from} to ${done.to}.`,
      );
    else
      ctx.term.notice(
        done.from === done.to
          ? `The store is up to date (schema ${done.to}).`
          : `Migrated the store from schema ${done.from} to ${done.to}.`,
      );
  },
});
