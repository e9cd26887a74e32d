import { defineCommand } from '../../app/command.js';
import { ANSWER_FILTER_FLAGS, answerFilter } from './flags.js';

/**
 * `creators store list`: one row per paid answer the store keeps, newest first, streamed. Opens the
 * store read-only: on a machine without one it prints an empty list and creates nothing.
 */
export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List what was bought: one row per stored answer, newest first',
  flags: { ...ANSWER_FILTER_FLAGS },
  examples: [
    ['creators store list', 'everything, as a table'],
    ['creators store list --platform instagram --kind creator --newer-than 7d', 'Instagram creators bought this week'],
    ['creators store list --older-than 90d --format csv -o old.csv', 'what a prune --older-than 90d would drop'],
  ],
  async run(ctx, { flags }) {
    const [{ printList }, { ANSWER_COLUMNS, answerRecord }] = await Promise.all([
      import('../../lib/output/index.js'),
      import('../../lib/store/views.js'),
    ]);
    const filter = answerFilter(flags, ctx.deps.now());
    const output = await ctx.output();
    const store = await ctx.store.local();
    async function* rows() {
      if (store) for await (const answer of store.list(filter)) yield answerRecord(answer);
    }
    const count = await printList(ctx.term, output, rows(), ANSWER_COLUMNS);
    if (count === 0 && output.format === 'table')
      ctx.term.notice(
        store ? 'Nothing in the store matches.' : `Nothing bought yet with profile '${ctx.profileName}'.`,
      );
  },
});
