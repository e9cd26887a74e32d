/** The creators a listening verb names: as arguments or a file, on one platform unless written `platform:handle`. */
import { LISTENING_PLATFORMS } from '../../contract/platforms.js';
import { UsageError } from '../errors.js';
import { readInputText, type InputPorts } from '../io/input.js';

export interface CreatorRef {
  platform: string;
  platform_id: string;
}

export interface CreatorSources {
  values: readonly string[];
  /** `--file <file|->`: more handles, one per line (blanks and `#` lines skipped). */
  file?: string | undefined;
  /** Asked for after the file is read; undefined when neither `--platform` nor the profile gives one. */
  platform(): Promise<string | undefined>;
}

export async function creatorRefs(ports: InputPorts, sources: CreatorSources): Promise<CreatorRef[]> {
  const all = [...sources.values];
  if (sources.file !== undefined) {
    const text = await readInputText(ports, sources.file, '--file');
    all.push(...text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
  }
  const platform = await sources.platform();
  return all.map((value) => parseCreatorRef(value, platform));
}

export function parseCreatorRef(value: string, platform: string | undefined): CreatorRef {
  const m = /^([a-z]+):(.+)$/i.exec(value.trim());
  if (m && (LISTENING_PLATFORMS as readonly string[]).includes((m[1] as string).toLowerCase())) {
    return { platform: (m[1] as string).toLowerCase(), platform_id: (m[2] as string).trim() };
  }
  if (!platform) {
    throw new UsageError(`No platform for creator '${value}'.`, { hint: 'Give --platform <p>, or write it as platform:handle (e.g. instagram:carlosrobinson).' });
  }
  return { platform, platform_id: value.trim() };
}
