import type { Context } from '../../app/context.js';
import { UsageError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { listExclusionLists } from '../api/exclusions.js';
import { readAllText } from '../input.js';
import { MAX_EXCLUDE_HANDLES } from './filters.js';

/**
 * Reads handles, one per line, from a file or stdin (`-`). Blank lines, `#` comments and a
 * `handle`/`username` header are skipped; exact duplicates (ignoring case) are kept once.
 */
export async function readHandleLines(ctx: Context, source: string, flag: string): Promise<string[]> {
  const text = (await readAllText(ctx, source, flag)).replace(/^\uFEFF/, '');
  return uniqueHandles(
    text.split(/\r?\n/).filter((line, i) => !(i === 0 && /^\s*"?(handles?|usernames?)"?\s*$/i.test(line))),
  );
}

/** Trimmed, without blanks or `#` comments, each once (ignoring case), in first-seen order. */
export function uniqueHandles(values: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const key = line.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(line);
  }
  return out;
}

/** Handles for `--exclude-handles`: more than 10,000 is a usage error, as the API would refuse them. */
export async function readExcludeHandles(ctx: Context, source: string, flag = '--exclude-handles'): Promise<string[]> {
  const out = await readHandleLines(ctx, source, flag);
  if (out.length > MAX_EXCLUDE_HANDLES) {
    throw new UsageError(`${flag} holds ${out.length} handles; the API takes at most ${MAX_EXCLUDE_HANDLES}.`, {
      hint: 'Put them in an exclusion list (creators exclusions add <list> --file ...) and use --exclude-list.',
    });
  }
  return out;
}

/**
 * The real API skips unknown or other-platform exclusion-list ids silently and still charges, so
 * they are checked first with one free GET of all lists: an id that does not exist, or belongs to
 * another platform, is a usage error and nothing billable is sent.
 */
export async function checkExclusionLists(http: HttpClient, platform: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const lists = await listExclusionLists(http);
  const byId = new Map(lists.map((l) => [Number(l.id), l]));
  for (const id of ids) {
    const list = byId.get(id);
    if (!list) {
      throw new UsageError(`Exclusion list ${id} does not exist; nothing was sent.`, { hint: 'See `creators exclusions list`.' });
    }
    if (String(list.platform).toLowerCase() !== platform) {
      throw new UsageError(`Exclusion list ${id} ('${String(list.name)}') is for ${String(list.platform)}, not ${platform}; nothing was sent.`, {
        hint: `See \`creators exclusions list --platform ${platform}\`.`,
      });
    }
  }
}
