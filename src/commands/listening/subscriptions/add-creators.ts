import { defineCommand } from '../../../app/command.js';
import { BODY_FLAGS, CREATOR_FLAGS } from '../flags.js';
import { changeCreators } from '../change-creators.js';

/** `creators listening subscriptions add-creators <id> [handle...]`: starts monitoring them (0.3 credits per creator per day). */
export default defineCommand({
  name: 'add-creators',
  description: 'Add creators to a subscription (each billed 0.3 credits per day)',
  args: [
    { name: '<id>', description: 'subscription id' },
    { name: '[creators...]', description: 'handles (or platform:handle)' },
  ],
  flags: { ...CREATOR_FLAGS, ...BODY_FLAGS },
  examples: [
    ['creators listening subscriptions add-creators 3 --platform youtube sophialearns', 'one creator'],
    ['creators listening subscriptions add-creators 3 --platform instagram --file handles.txt', 'from a file'],
    [
      'creators listening subscriptions add-creators 3 instagram:noah_paws tiktok:themaxtech --max-credits 1',
      'with a budget',
    ],
  ],
  run: (ctx, { args: [rawId, ...values], flags }) =>
    changeCreators(ctx, { kind: 'subscription', action: 'add', rawId, values, flags }),
});
