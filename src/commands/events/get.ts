import { defineCommand } from '../../app/command.js';
import { positiveId } from '../../lib/ids.js';

/** `creators events get <id>`: one event with its full delivery history. Free. */
export default defineCommand({
  name: 'get',
  description: 'One event with its full delivery history',
  args: [{ name: '<id>', description: 'event id' }],
  examples: [
    ['creators events get 42', 'summary and delivery attempts'],
    ['creators events get 42 --json', 'everything'],
  ],
  async run(ctx, { args }) {
    const id = positiveId(args[0], 'event id');
    const [{ getEvent }, { printWithRows }] = await Promise.all([
      import('../../lib/api/listening.js'),
      import('../../lib/listening/print.js'),
    ]);
    const http = await ctx.http();
    const event = await getEvent(http, id);
    await printWithRows(ctx.term, await ctx.output(), event, 'delivery_history', [
      { path: 'attempt', header: '#', kind: 'number' },
      { path: 'attempted_at', header: 'Attempted', kind: 'date' },
      { path: 'status', header: 'Status' },
      { path: 'response_status', header: 'HTTP', kind: 'number' },
      { path: 'latency_seconds', header: 'Latency s', kind: 'number' },
      { path: 'error', header: 'Error' },
    ]);
  },
});
