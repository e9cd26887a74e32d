import { describe, expect, it } from 'vitest';

import { colors } from '../../../src/lib/io/color.js';
import { printError } from '../../../src/lib/output/errors-print.js';
import { memoryTerminal } from '../../helpers/terminal.js';

const rateLimited = {
  message: 'Daily Discovery limit reached; try again at 2025-01-02 00:00 UTC.',
  code: 'daily_limit_exceeded',
  status: 429,
  retryAfter: 3600,
  hint: 'Run with --max-results to spend less.',
};

describe('printError', () => {
  it.each(['json', 'jsonl'] as const)('prints exactly one JSON line on stderr in %s format', (format) => {
    const io = memoryTerminal();
    printError(io, { format, color: true }, rateLimited, 'Error: stack\n    at x');
    const lines = io.err().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    expect(JSON.parse(lines[0] as string)).toEqual({
      error: {
        code: 'daily_limit_exceeded',
        message: rateLimited.message,
        status: 429,
        retry_after: 3600,
        hint: rateLimited.hint,
      },
    });
    expect(io.out()).toBe('');
  });

  it('uses null for an absent status and retry_after', () => {
    const io = memoryTerminal();
    printError(io, { format: 'json', color: false }, { message: 'boom', code: 'network_error' });
    expect(JSON.parse(io.err())).toEqual({
      error: { code: 'network_error', message: 'boom', status: null, retry_after: null },
    });
  });

  it('ends a stopped billable command with the spend line in text, and as `spent` in JSON', () => {
    const spent = { spentMilli: 5500, kept: '550 creators kept in p.json, marked partial' };
    const text = memoryTerminal();
    printError(text, { format: 'table', color: false }, { message: 'Interrupted.', code: 'interrupted', spent });
    expect(text.err()).toBe(
      'error: Interrupted.\nSpent 5.5 credits in this run; 550 creators kept in p.json, marked partial.\n',
    );
    const json = memoryTerminal();
    printError(json, { format: 'json', color: false }, { message: 'Interrupted.', code: 'interrupted', spent });
    expect(JSON.parse(json.err())).toEqual({
      error: {
        code: 'interrupted',
        message: 'Interrupted.',
        status: null,
        retry_after: null,
        spent: { credits: 5.5, kept: spent.kept },
      },
    });
  });

  it('prints error: and the hint as text otherwise, without colour when off', () => {
    const io = memoryTerminal();
    printError(io, { format: 'table', color: false }, rateLimited);
    expect(io.err()).toBe(`error: ${rateLimited.message}\n${rateLimited.hint}\n`);
    expect(io.out()).toBe('');
  });

  it('colours error: in red and adds the stack only when given', () => {
    const io = memoryTerminal();
    printError(io, { format: 'csv', color: true }, { message: 'bad', code: 'x' }, 'Error: bad\n    at f (a.js:1:1)');
    expect(io.err()).toBe('\x1b[31merror:\x1b[39m bad\n\x1b[2mError: bad\n    at f (a.js:1:1)\x1b[22m\n');
    const plain = memoryTerminal();
    printError(plain, { format: 'tsv', color: false }, { message: 'bad', code: 'x' });
    expect(plain.err()).toBe('error: bad\n');
  });
});

describe('colors', () => {
  it('wraps text in ANSI styles when enabled and is the identity otherwise', () => {
    const c = colors(true);
    expect(c.red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(c.bold('x')).toBe('\x1b[1mx\x1b[22m');
    const off = colors(false);
    for (const paint of Object.values(off)) expect(paint('text')).toBe('text');
  });
});
