import type { SkipBoughtOutcome } from '../lib/discovery/input.js';
import type { Notices } from '../lib/io/terminal.js';
import { durationText } from '../lib/output/humanize.js';
import { countText, plural } from '../lib/words.js';

/** What `--skip-bought` did, said on stderr: a notice, or a warning when creators may be bought again. */
export function tellSkipBought(notices: Notices, outcome: SkipBoughtOutcome): void {
  if (outcome.kind === 'no-store') {
    notices.warn('--skip-bought needs the store: with --no-store no creator is left out.');
    return;
  }
  if (outcome.kind === 'no-window') {
    notices.notice('--skip-bought: --max-age 0 counts no creator as bought; none left out.');
    return;
  }
  const within = `on ${outcome.platform} within ${durationText(outcome.windowMs)}`;
  if (outcome.kind === 'none-bought') {
    notices.notice(`--skip-bought: no creator bought ${within}; none left out.`);
    return;
  }
  notices.notice(`--skip-bought: leaving out ${plural(outcome.leftOut, 'creator')} already bought ${within}.`);
  if (outcome.over > 0) {
    notices.warn(
      `--skip-bought: ${plural(outcome.over, 'more creator')} bought ${within} could not be left out: a request takes at most ${countText(outcome.cap)} handles ` +
        '(the most recently bought are left out). They may be returned, and charged, again; put them in an exclusion list (creators exclusions add) and use --exclude-list.',
    );
  }
}
