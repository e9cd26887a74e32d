import { defineGroup } from '../../app/command.js';
import doctor from './doctor.js';
import exportAnswers from './export.js';
import forget from './forget.js';
import list from './list.js';
import migrate from './migrate.js';
import path from './path.js';
import prune from './prune.js';
import push from './push.js';
import stats from './stats.js';

/** `creators store path|stats|list|export|prune|forget|migrate|push|doctor`: the purchase memory of this profile. */
export default defineGroup({
  name: 'store',
  description: 'The purchase memory: every paid answer kept, so nothing is paid for twice',
  examples: [
    ['creators store stats', 'records by kind, credits, oldest and newest, size'],
    ['creators store list --newer-than 7d', 'what was bought this week'],
    ['creators store prune --older-than 90d --yes', 'drop answers bought more than 90 days ago'],
    ['creators store doctor', 'show the claims, reservations and pace runs share; clear what dead runs left'],
    [
      'CREATORS_STORE=postgres://analyst@db.example/creators creators store stats',
      'a team store on PostgreSQL (README: Sharing with a team and CI)',
    ],
  ],
  commands: [path, stats, list, exportAnswers, prune, forget, migrate, push, doctor],
});
