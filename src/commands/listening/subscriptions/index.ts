import { defineGroup } from '../../../app/command.js';
import addCreators from './add-creators.js';
import create from './create.js';
import creators from './creators.js';
import del from './delete.js';
import details from './details.js';
import exportCsv from './export.js';
import get from './get.js';
import list from './list.js';
import update from './update.js';

export default defineGroup({
  name: 'subscriptions',
  aliases: ['subs'],
  description: 'Subscriptions: watch creators for new posts, bio changes and follower milestones',
  examples: [
    ['creators listening subscriptions list', 'every subscription (free)'],
    [
      'creators listening subscriptions create --name launch --platform instagram carlosrobinson samuelkhan',
      'start watching (0.3 credits per creator per day)',
    ],
    ['creators listening subs add-creators 3 instagram:noah_paws --max-credits 1', 'add a creator, within a budget'],
    ['creators listening subscriptions delete 3 --yes', 'stop and delete'],
  ],
  commands: [list, get, create, update, del, creators, addCreators, details, exportCsv],
});
