import { defineGroup } from '../../../app/command.js';
import addCreators from './add-creators.js';
import archive from './archive.js';
import content from './content.js';
import create from './create.js';
import creators from './creators.js';
import get from './get.js';
import list from './list.js';
import overview from './overview.js';
import removeCreators from './remove-creators.js';
import update from './update.js';

export default defineGroup({
  name: 'campaigns',
  description: "Campaigns: follow creators' content for a period, with overview analytics",
  examples: [
    [
      'creators listening campaigns create --name spring --days 30 --platform instagram carlosrobinson samuelkhan',
      '2 x 30 x 0.3 = 18 credits at most',
    ],
    [
      'creators listening campaigns add-creators 2 --platform instagram noah_paws --max-credits 10',
      'priced for the days the campaign has left',
    ],
    ['creators listening campaigns overview 2', 'analytics (free)'],
    ['creators listening campaigns content 2 --format csv -o posts.csv', 'the content feed as CSV'],
  ],
  commands: [list, get, create, update, archive, creators, addCreators, removeCreators, overview, content],
});
