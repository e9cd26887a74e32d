import { defineGroup } from '../../app/command.js';
import get from './get.js';
import list from './list.js';
import tail from './tail.js';

/** `creators events ...`: the social listening events (free). */
export default defineGroup({
  name: 'events',
  description: 'Social listening events: list, read with delivery history, tail (free)',
  examples: [
    ['creators events list --subscription 3 --all --format jsonl', 'every event of a subscription'],
    ['creators events get 42', 'one event and its delivery attempts'],
    ['creators events tail --once --cursor-file ~/.events.cursor >> events.jsonl', 'cron: only what is new'],
  ],
  commands: [list, get, tail],
});
