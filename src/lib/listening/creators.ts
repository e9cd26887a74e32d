/** The creators a listening verb names: as arguments or a file, on one platform unless written `platform:handle`. */
import { normalizeHandle } from '../../contract/handles.js';
import { LISTENING_PLATFORMS } from '../../contract/platforms.js';
import { readColumnValues, type ColumnValuesPorts } from '../csv/values.js';
import { UsageError } from '../errors.js';

export interface CreatorRef {
  platform: string;
  platform_id: string;
}

export interface CreatorSources {
  values: readonly string[];
  /**
   * More creators from a file (or `-`), read as every file of creators is (one per line, or the handle column of a
   * CSV); `named` in messages.
   */
  file?: { path: string; named: string } | undefined;
  /** Asked for after the file is read; undefined when none is given (nor the profile's). */
  platform(): Promise<string | undefined>;
}

/**
 * One ref a creator, however it is written (`@Noah`, `noah`, its profile URL): the service monitors (and bills) it
 * once.
 */
export async function creatorRefs(ports: ColumnValuesPorts, sources: CreatorSources): Promise<CreatorRef[]> {
  const all: { value: string; platform?: string | undefined }[] = sources.values.map((value) => ({ value }));
  if (sources.file !== undefined)
    all.push(
      ...(await readColumnValues(ports, sources.file.path, sources.file.named, {
        kind: 'handle',
        platformColumn: true,
      })),
    );
  const platform = await sources.platform();
  const seen = new Set<string>();
  const refs: CreatorRef[] = [];
  for (const { value, platform: rowPlatform } of all) {
    // A row's own `platform` cell (the CLI's listening output) is its platform, as `platform:handle` would be.
    const own =
      rowPlatform !== undefined && (LISTENING_PLATFORMS as readonly string[]).includes(rowPlatform.toLowerCase())
        ? rowPlatform.toLowerCase()
        : undefined;
    const ref = parseCreatorRef(value, own ?? platform);
    const key = `${ref.platform}:${normalizeHandle(ref.platform_id) || ref.platform_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    refs.push(ref);
  }
  return refs;
}

export function parseCreatorRef(value: string, platform: string | undefined): CreatorRef {
  const m = /^([a-z]+):(.+)$/i.exec(value.trim());
  if (m && (LISTENING_PLATFORMS as readonly string[]).includes((m[1] as string).toLowerCase())) {
    return { platform: (m[1] as string).toLowerCase(), platform_id: (m[2] as string).trim() };
  }
  if (!platform) {
    throw new UsageError(`No platform for creator '${value}'.`, {
      hint: 'Give --platform <p>, or write it as platform:handle (e.g. instagram:carlosrobinson).',
    });
  }
  return { platform, platform_id: value.trim() };
}
