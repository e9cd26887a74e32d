import { defineCommand } from '../../app/command.js';
import { ANSWER_FILTER_FLAGS, answerFilter } from './flags.js';

/**
 * `creators store export`: the stored answers with what was sent and what came back. JSON formats carry
 * both as JSON (the answer's numbers exact); csv/tsv as one cell of JSON text each; a terminal table
 * shows the list's columns only. Reads only.
 */
export default defineCommand({
  name: 'export',
  description: 'Export the stored answers with their bodies (json, jsonl; csv/tsv hold each body as JSON text)',
  flags: { ...ANSWER_FILTER_FLAGS },
  examples: [
    ['creators store export -o store.jsonl', 'every answer, one per line'],
    [
      "creators store export --platform instagram --kind creator --format jsonl | jq -c '[.subject, .answer.result.instagram.follower_count]'",
      'each Instagram creator kept, with its followers',
    ],
  ],
  async run(ctx, { flags }) {
    const [{ isTerminalTable, printList }, { ANSWER_COLUMNS, exportRecord }] = await Promise.all([
      import('../../lib/output/index.js'),
      import('../../lib/store/views.js'),
    ]);
    const filter = answerFilter(flags, ctx.deps.now());
    const output = await ctx.output();
    const asJson = output.format === 'json' || output.format === 'jsonl';
    const store = await ctx.store.local();
    async function* rows() {
      if (store) for await (const answer of store.list(filter)) yield exportRecord(answer, asJson);
    }
    const terminal = isTerminalTable(ctx.term, output);
    const count = await printList(ctx.term, output, rows(), ANSWER_COLUMNS);
    if (count === 0 && output.format === 'table')
      ctx.term.notice(
        store ? 'Nothing in the store matches.' : `Nothing bought yet with profile '${ctx.profileName}'.`,
      );
    else if (terminal)
      ctx.term.notice('The bodies are left out of a table: use --format jsonl or -o <file>.jsonl to export them.');
  },
});
