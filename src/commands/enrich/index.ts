import { defineGroup } from '../../app/command.js';
import email from './email.js';
import handle from './handle.js';

export default defineGroup({
  name: 'enrich',
  description: 'Enrich creators by handle or email (billed per creator found)',
  examples: [
    ['creators enrich handle carlosrobinson --platform instagram', 'full enrichment of one creator (1 credit)'],
    ['creators enrich email carlosrobinson.collabs@example.com', 'creators behind an email address'],
  ],
  commands: [handle, email],
});
