import { defineGroup } from '../../app/command.js';
import status from './status.js';
import token from './token.js';

export default defineGroup({
  name: 'auth',
  description: 'Inspect or print the credential in effect',
  examples: [
    ['creators auth status', 'which credential is used, and is it valid'],
    ['creators auth token', 'print the bearer credential for other tools'],
  ],
  commands: [status, token],
});
