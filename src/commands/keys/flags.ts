import type { FlagDefs } from '../../app/command.js';

/** `--show-token`, shared by the keys verbs that print a key. */
export const SHOW_TOKEN = {
  showToken: { flags: '--show-token', description: 'print key values in full (masked otherwise)' },
} as const satisfies FlagDefs;
