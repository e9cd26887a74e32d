import { defineCommand } from '../../../app/command.js';
import { BODY_FLAGS, CREATOR_FLAGS } from '../flags.js';
import { changeCreators } from '../change-creators.js';

/** `creators listening campaigns remove-creators <id> [handle...]`: confirms unless --yes; billed days are not refunded. */
export default defineCommand({
  name: 'remove-creators',
  description: 'Remove creators from a campaign (asks first unless --yes; billed days are not refunded)',
  args: [
    { name: '<id>', description: 'campaign id' },
    { name: '[creators...]', description: 'handles (or platform:handle)' },
  ],
  flags: { ...CREATOR_FLAGS, ...BODY_FLAGS },
  examples: [
    ['creators listening campaigns remove-creators 2 --platform instagram carlosrobinson --yes', 'stop following one'],
    ['creators listening campaigns remove-creators 2 --file gone.txt --platform tiktok', 'from a file'],
  ],
  run: (ctx, { args: [rawId, ...values], flags }) =>
    changeCreators(ctx, { kind: 'campaign', action: 'remove', rawId, values, flags }),
});
