import { defineGroup } from '../../app/command.js';
import download from './download.js';
import poll from './poll.js';
import resume from './resume.js';
import run from './run.js';
import status from './status.js';
import upload from './upload.js';

/** Batch enrichment: upload, status, poll, download, resume, run. */
export default defineGroup({
  name: 'batch',
  description: 'Batch enrichment of a CSV of handles or emails: upload, wait, download',
  examples: [
    [
      'creators batch run handles.csv --mode raw --platform instagram -o results.csv',
      'upload, wait and download in one go',
    ],
    ['creators batch upload emails.csv --mode basic', 'start a job; prints its batch id'],
    ['creators batch poll bch_... --interval 60', 'wait for it'],
  ],
  commands: [upload, status, poll, download, resume, run],
});
