import { defineGroup } from '../../app/command.js';
import campaigns from './campaigns/index.js';
import subscriptions from './subscriptions/index.js';
import usage from './usage.js';

/** Social listening: subscriptions, campaigns and usage (the events are the top-level `events` group). */
export default defineGroup({
  name: 'listening',
  description:
    'Social listening: subscriptions and campaigns that watch creators (monitoring: 0.3 credits per creator per day)',
  examples: [
    [
      'creators listening subscriptions create --name launch --platform instagram carlosrobinson samuelkhan',
      'watch two creators (0.6 credits per day)',
    ],
    [
      'creators listening campaigns create --name spring --days 30 --platform tiktok c1 --max-credits 10',
      'a 30-day campaign, 9 credits at most',
    ],
    ['creators listening usage', 'limits and monitored creators (free)'],
    ['creators events tail', 'print new events as they appear (free)'],
  ],
  commands: [subscriptions, campaigns, usage],
});
