import { defineCommand } from '../../../app/command.js';
import { BODY_FLAGS, CREATOR_FLAGS } from '../flags.js';
import { changeCreators } from '../change-creators.js';

/** `creators listening campaigns add-creators <id> [handle...]`: starts monitoring them, priced for the days the campaign has left. */
export default defineCommand({
  name: 'add-creators',
  description: 'Add creators to a campaign (each billed 0.3 credits per day)',
  args: [
    { name: '<id>', description: 'campaign id' },
    { name: '[creators...]', description: 'handles (or platform:handle)' },
  ],
  flags: { ...CREATOR_FLAGS, ...BODY_FLAGS },
  examples: [
    ['creators listening campaigns add-creators 2 --platform instagram noah_paws', 'one creator'],
    ['creators listening campaigns add-creators 2 --platform tiktok --file more.txt', 'from a file'],
  ],
  run: (ctx, { args: [rawId, ...values], flags }) =>
    changeCreators(ctx, { kind: 'campaign', action: 'add', rawId, values, flags }),
});
