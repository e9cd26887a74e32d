import { describe, expect, it } from 'vitest';
import { PagerClosedError } from '../../../src/lib/errors.js';
import { choosePager, pageOnce, pagerCommand, type Pager } from '../../../src/lib/output/pager.js';
import { printPaidList } from '../../../src/lib/output/paid.js';
import { printList } from '../../../src/lib/output/printers.js';
import { openSink } from '../../../src/lib/output/sink.js';
import type { OutputSettings } from '../../../src/lib/output/types.js';
import { fakePager, type FakePagerOptions } from '../../helpers/fake-pager.js';
import { memoryTerminal } from '../../helpers/terminal.js';

function paged(
  options: FakePagerOptions = {},
  streamAfterBytes?: number,
): { pager: Pager; fake: ReturnType<typeof fakePager> } {
  const fake = fakePager(options);
  return { fake, pager: { command: 'less -FRX', env: {}, start: fake.start, streamAfterBytes } };
}

describe('pagerCommand and choosePager', () => {
  it('CREATORS_PAGER > setting > PAGER > less -FRX; empty, cat and the setting false mean none', () => {
    expect(pagerCommand({}, undefined)).toBe('less -FRX');
    expect(pagerCommand({ PAGER: 'more' }, undefined)).toBe('more');
    expect(pagerCommand({ PAGER: 'more' }, 'most')).toBe('most');
    expect(pagerCommand({ PAGER: 'more' }, 'true')).toBe('more');
    expect(pagerCommand({ PAGER: 'more', CREATORS_PAGER: 'lv' }, 'most')).toBe('lv');
    expect(pagerCommand({ PAGER: 'more' }, 'false')).toBeUndefined();
    expect(pagerCommand({ CREATORS_PAGER: '' }, 'most')).toBeUndefined();
    expect(pagerCommand({ CREATORS_PAGER: ' cat ' }, undefined)).toBeUndefined();
    expect(pagerCommand({ PAGER: '' }, undefined)).toBeUndefined();
  });

  it('only for a terminal stdout, not to a file, not with --no-pager, and only when a pager can be started', () => {
    const start = fakePager().start;
    const base = { stdoutIsTTY: true, toFile: false, flag: undefined, env: {}, setting: undefined, start };
    expect(choosePager(base)).toMatchObject({ command: 'less -FRX', env: { LESS: 'FRX', LV: '-c' }, chosen: false });
    expect(choosePager({ ...base, env: { PAGER: 'less -FRX' } })).toMatchObject({ chosen: false });
    expect(choosePager({ ...base, env: { PAGER: 'more' } })).toMatchObject({ chosen: true });
    expect(choosePager({ ...base, stdoutIsTTY: false })).toBeUndefined();
    expect(choosePager({ ...base, toFile: true })).toBeUndefined();
    expect(choosePager({ ...base, flag: false })).toBeUndefined();
    expect(choosePager({ ...base, start: undefined })).toBeUndefined();
    expect(choosePager({ ...base, env: { LESS: 'S' } })?.env.LESS).toBe('S');
  });
});

describe('the paged stdout sink', () => {
  it('holds the output until commit, starts one pager, closes its input and resolves after it exits', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const { pager, fake } = paged();
    const sink = await openSink(io, { pager });
    await sink.write('a\n');
    await sink.write('b\n');
    expect(fake.calls).toHaveLength(0);
    await sink.commit();
    expect(fake.calls).toHaveLength(1);
    expect(fake.text()).toBe('a\nb\n');
    expect(fake.exits()).toBe(1);
    expect(io.out()).toBe('');
  });

  it('no output: no pager at all', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const { pager, fake } = paged();
    const sink = await openSink(io, { pager });
    await sink.commit();
    expect(fake.calls).toHaveLength(0);
  });

  it('a failed printer still shows what it had printed (as on a plain terminal), and abort never throws', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const { pager, fake } = paged({ quitAfter: 1 });
    const sink = await openSink(io, { pager });
    await sink.write('partial\n');
    await sink.write('more\n');
    await expect(sink.abort()).resolves.toBeUndefined();
    expect(fake.text()).toBe('partial\n');
  });

  it('past the held size the pager starts and the rest streams in; a quit then rejects the next write with PagerClosedError', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const { pager, fake } = paged({ quitAfter: 30 }, 20);
    const sink = await openSink(io, { pager });
    await sink.write('0123456789\n');
    expect(fake.calls).toHaveLength(0);
    await sink.write('0123456789\n'); // 22 bytes held: the pager starts
    expect(fake.calls).toHaveLength(1);
    await sink.write('0123456789\n'); // the pager takes it and quits
    await expect(sink.write('0123456789\n')).rejects.toBeInstanceOf(PagerClosedError);
    await expect(sink.commit()).resolves.toBeUndefined();
  });

  it('a paid run streaming into a pager stops pulling records (buying pages) once the pager is quit', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const { pager } = paged({ quitAfter: 400 }, 100);
    let pulled = 0;
    async function* records(): AsyncGenerator<Record<string, unknown>> {
      for (let i = 0; i < 10_000; i++) {
        pulled++;
        yield { id: i, name: `creator number ${i}` };
      }
    }
    const settings = { format: 'jsonl', formatExplicit: true, color: false, quiet: false, pager } as OutputSettings;
    const err = await printPaidList(io, settings, records(), [], { spentMilli: () => 1000, noun: 'creators' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PagerClosedError);
    expect((err as PagerClosedError).spent).toBeUndefined();
    // jsonl is written in 64 KB batches (~1,600 of these records): a few batches past the quit at most, not all 10,000.
    expect(pulled).toBeLessThan(5_000);
    expect(io.out()).toBe('');
    expect(io.err()).toBe('');
  });

  it('a pager that cannot be started: one warning, then the output goes to stdout', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const { pager } = paged({ notFound: true });
    const sink = await openSink(io, { pager });
    await sink.write('x\n');
    await sink.write('y\n');
    await sink.commit();
    expect(io.out()).toBe('x\ny\n');
    expect(io.err()).toBe(
      "warning: cannot start the pager 'less -FRX' (not found); writing directly. Set CREATORS_PAGER, or use --no-pager.\n",
    );
  });

  it('the default less missing (nobody chose it): no pager, no warning', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const { pager } = paged({ notFound: true });
    const sink = await openSink(io, { pager: { ...pager, chosen: false } });
    await sink.write('x\n');
    await sink.commit();
    expect(io.out()).toBe('x\n');
    expect(io.err()).toBe('');
  });
});

describe('pageOnce', () => {
  it('the sinks of one screen share one pager, committed at the end of the screen, parts in order', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const { pager, fake } = paged();
    await pageOnce({ pager }, async (screen) => {
      for (const part of ['one\n', 'two\n', 'three\n']) {
        const sink = await openSink(io, screen);
        await sink.write(part);
        await sink.commit();
      }
      expect(fake.calls).toHaveLength(0);
    });
    expect(fake.calls).toHaveLength(1);
    expect(fake.text()).toBe('one\ntwo\nthree\n');
    expect(fake.exits()).toBe(1);
  });

  it('a screen that fails part-way: what was printed is still shown, the error goes on', async () => {
    const io = memoryTerminal({ stdoutIsTTY: true });
    const { pager, fake } = paged();
    const failed = pageOnce({ pager }, async (screen) => {
      const sink = await openSink(io, screen);
      await sink.write('summary\n');
      await sink.commit();
      throw new Error('list failed');
    });
    await expect(failed).rejects.toThrow('list failed');
    expect(fake.text()).toBe('summary\n');
  });

  it("a part's note (columns left out) follows the whole screen, after the pager", async () => {
    const io = memoryTerminal({ stdoutIsTTY: true, columns: 40 });
    const { pager, fake } = paged();
    let exitsAtNote: number | undefined;
    io.stderr.on('data', () => (exitsAtNote ??= fake.exits()));
    const record = { id: 'a1', bio: 'y'.repeat(30), city: 'z'.repeat(30), notes: 'w'.repeat(30), more: 'x'.repeat(30) };
    const settings: OutputSettings = {
      format: 'table',
      formatExplicit: false,
      color: false,
      unicode: true,
      quiet: false,
      pager,
    };
    await pageOnce(settings, async (screen) => {
      await printList(io, screen, [record], []);
      const sink = await openSink(io, screen);
      await sink.write('after the table\n');
      await sink.commit();
    });
    expect(fake.calls).toHaveLength(1);
    expect(fake.text()).toMatch(/┌[\s\S]*after the table\n$/);
    expect(io.err()).toMatch(/^note: columns? .* left out to fit 40 columns/);
    expect(exitsAtNote).toBe(1);
  });

  it('without a pager the settings pass through unchanged', async () => {
    const settings = { pager: undefined };
    await pageOnce(settings, async (screen) => {
      expect(screen).toBe(settings);
    });
  });
});
