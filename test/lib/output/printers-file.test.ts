import fs from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { printList, printText } from '../../../src/lib/output/printers.js';
import type { DataRecord } from '../../../src/lib/output/types.js';
import { columns, creators, failingAfter, settings, slowly } from './fixtures.js';
import { memoryTerminal } from '../../helpers/terminal.js';
import { tempDir } from '../../helpers/temp.js';

describe('printList with -o and a failing source', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('creators-print-');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['json', 'jsonl', 'csv', 'tsv', 'table'] as const)(
    '%s: leaves no file and no temp file, rethrows',
    async (format) => {
      const target = path.join(dir, 'out.data');
      const boom = new Error('page 3 failed');
      const err = await printList(
        memoryTerminal(),
        settings(format, { outputPath: target }),
        failingAfter(creators, boom),
        columns,
      ).catch((e: unknown) => e);
      expect(err).toBe(boom);
      expect(fs.readdirSync(dir)).toEqual([]);
    },
  );

  it('leaves a pre-existing target intact', async () => {
    const target = path.join(dir, 'out.csv');
    fs.writeFileSync(target, 'old,data\n');
    const boom = new Error('network');
    await expect(
      printList(memoryTerminal(), settings('csv', { outputPath: target }), failingAfter(creators, boom), columns),
    ).rejects.toBe(boom);
    expect(fs.readdirSync(dir)).toEqual(['out.csv']);
    expect(fs.readFileSync(target, 'utf8')).toBe('old,data\n');
  });

  it('a sync iterable that throws is handled the same way', async () => {
    const target = path.join(dir, 'out.json');
    const boom = new Error('sync');
    function* gen(): Generator<DataRecord> {
      yield { a: 1 };
      throw boom;
    }
    await expect(printList(memoryTerminal(), settings('json', { outputPath: target }), gen(), columns)).rejects.toBe(
      boom,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('writes the file completely when the source succeeds', async () => {
    const target = path.join(dir, 'out.json');
    const io = memoryTerminal();
    await printList(io, settings('json', { outputPath: target }), slowly(creators), columns);
    expect(JSON.parse(fs.readFileSync(target, 'utf8'))).toEqual(creators);
    expect(fs.readdirSync(dir)).toEqual(['out.json']);
    expect(io.out()).toBe('');
  });
});

describe('printText', () => {
  it('writes text as is to stdout or atomically to a file', async () => {
    const io = memoryTerminal();
    await printText(io, settings('table'), 'complete -F _creators creators\n');
    expect(io.out()).toBe('complete -F _creators creators\n');
    const dir = tempDir('creators-print-');
    try {
      const target = path.join(dir, 'body.txt');
      await printText(io, settings('json', { outputPath: target }), 'not json');
      expect(fs.readFileSync(target, 'utf8')).toBe('not json');
      expect(fs.readdirSync(dir)).toEqual(['body.txt']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
