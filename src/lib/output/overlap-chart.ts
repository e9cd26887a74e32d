/**
 * `creators overlap` on a terminal: each creator's audience as one bar split into its unique and overlapping shares.
 */
import { colors } from '../io/color.js';
import { escapeControls } from '../io/safe-text.js';
import { barRows, chartGlyphs, shareText, type BarRow, type ChartStyle } from './charts.js';
import { toNumber } from './humanize.js';

export interface OverlapShare {
  username: unknown;
  unique_percentage: unknown;
  overlapping_percentage: unknown;
}

const INDENT = '  ';

/** The overlapping share is the rest when the answer leaves it out; '' when no row has a unique share. */
export function overlapChart(rows: readonly OverlapShare[], style: ChartStyle): string {
  const bars: BarRow[] = rows.flatMap((row) => {
    const unique = toNumber(row.unique_percentage);
    if (unique === undefined) return [];
    const overlapping = toNumber(row.overlapping_percentage) ?? 100 - unique;
    return [
      {
        label: escapeControls(String(row.username ?? '')),
        parts: [unique / 100, overlapping / 100],
        text: `${shareText(unique / 100)} unique`,
      },
    ];
  });
  if (bars.length === 0) return '';
  const paint = colors(style.color);
  const g = chartGlyphs(style.unicode);
  const legend = `${paint.cyan(g.full)} unique  ${paint.yellow(g.second)} overlapping`;
  const lines = barRows(bars, { ...style, width: style.width - INDENT.length }).map((line) => `${INDENT}${line}`);
  return `\n${paint.bold('Audience')}  ${legend}\n${lines.join('\n')}\n`;
}
