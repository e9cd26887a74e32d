import type { FlagValues } from '../../app/command.js';
import type { Context } from '../../app/context.js';
import { ports as portsOf } from '../../app/ports.js';
import { LISTENING_PLATFORMS } from '../../contract/platforms.js';
import { UsageError } from '../../lib/errors.js';
import { positiveId } from '../../lib/ids.js';
import type { ListeningKind } from '../../lib/api/listening.js';
import { type BODY_FLAGS, bodyParts, type CREATOR_FLAGS } from './flags.js';

/** The flags of `add-creators`/`remove-creators`. */
export type CreatorChangeFlags = FlagValues<typeof CREATOR_FLAGS & typeof BODY_FLAGS>;

/**
 * `add-creators`/`remove-creators` of a subscription or a campaign: the creators (arguments, `--file`,
 * `--platform`) and the body are read before anything is sent; the workflow gates, sends and prints.
 */
export async function changeCreators(
  ctx: Context,
  change: {
    kind: ListeningKind;
    action: 'add' | 'remove';
    rawId: string | undefined;
    values: string[];
    flags: CreatorChangeFlags;
  },
): Promise<void> {
  const { kind, action, rawId = '', values, flags } = change;
  const id = positiveId(rawId, `${kind} id`);
  const [{ creatorRefs }, { buildBody }, { addCreators, removeCreators }, { printItem }] = await Promise.all([
    import('../../lib/listening/creators.js'),
    import('../../lib/body.js'),
    import('../../lib/listening/workflows.js'),
    import('../../lib/output/index.js'),
  ]);
  const refs = await creatorRefs(ctx.term, {
    values,
    file: flags.file === undefined ? undefined : { path: flags.file, named: '--file' },
    platform: () => ctx.config.optionalPlatform(flags.platform, LISTENING_PLATFORMS),
  });
  if (refs.length === 0 && flags.body === undefined)
    throw new UsageError('Name at least one creator: as arguments, or with --file <file|->.');
  const body = await buildBody(portsOf.body(ctx), bodyParts(flags), { creators: refs.length > 0 ? refs : undefined });
  const output = await ctx.output();
  const ports = await portsOf.listening(ctx);
  const result =
    action === 'add' ? await addCreators(ports, kind, id, body) : await removeCreators(ports, kind, id, body, rawId);
  if (result) await printItem(ctx.term, output, result);
}
