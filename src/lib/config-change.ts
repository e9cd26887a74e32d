/**
 * What `config set`/`unset` and `logout` print under `--dry-run`: data on stdout, never `-o` (a dry run writes no
 * file).
 */
import { shownSetting } from './config.js';
import type { Terminal } from './io/terminal.js';
import { printText } from './output/printers.js';
import type { OutputSettings } from './output/types.js';

/** One setting a command would change. Values are shown as `config list` shows them (secrets masked). */
export interface SettingChange {
  action: 'set' | 'unset';
  key: string;
  value: string | null;
  previous: string | null;
}

export interface SettingsPlan {
  dry_run: true;
  profile: string;
  file: string;
  changes: SettingChange[];
}

export function shownValue(key: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return 'stored';
  return shownSetting(key, String(value));
}

export async function printSettingsPlan(io: Terminal, settings: OutputSettings, plan: SettingsPlan): Promise<void> {
  if (settings.format === 'json' || settings.format === 'jsonl') {
    await printText(io, settings, `${JSON.stringify(plan, null, settings.format === 'json' ? 2 : undefined)}\n`);
    return;
  }
  const now = (c: SettingChange): string => (c.previous === null ? 'not set now' : `now '${c.previous}'`);
  const lines = plan.changes.map((c) =>
    c.action === 'set' ? `  set ${c.key} to '${c.value ?? ''}' (${now(c)})` : `  unset ${c.key} (${now(c)})`,
  );
  await printText(
    io,
    settings,
    `Dry run: nothing was changed.\nProfile '${plan.profile}' in ${plan.file}:\n${lines.length > 0 ? lines.join('\n') : '  nothing to change'}\n`,
  );
}
