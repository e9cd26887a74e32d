import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { escapeControls, escapeJsonC1 } from '../../../src/lib/io/safe-text.js';
import { Secrets } from '../../../src/lib/http/redact.js';
import { Terminal } from '../../../src/lib/io/terminal.js';
import type { Io } from '../../../src/lib/io/streams.js';
import { printError } from '../../../src/lib/output/errors-print.js';

describe('escapeControls', () => {
  it('shows C0 (but tab and line feed), DEL and C1 as visible escapes, and leaves everything else alone', () => {
    expect(escapeControls('a\x1b]0;t\x07b')).toBe(String.raw`a\x1b]0;t\x07b`);
    expect(escapeControls('x\b\r\f\v\0y')).toBe(String.raw`x\b\r\f\v\0y`);
    expect(escapeControls('\u009b2J\u0085\x7f')).toBe(String.raw`\u009b2J\u0085\x7f`);
    expect(escapeControls('tab\there\nnext line: é 😀 漢字 \\x1b')).toBe('tab\there\nnext line: é 😀 漢字 \\x1b');
  });
});

describe('escapeJsonC1', () => {
  it('writes C1 and DEL as \\u escapes; the JSON parses back to the same data', () => {
    const value = { name: 'a\u009bb\u0085c\x7f', plain: 'ü' };
    const text = escapeJsonC1(JSON.stringify(value));
    expect(text).toBe('{"name":"a\\u009bb\\u0085c\\u007f","plain":"ü"}');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('Secrets', () => {
  it('redacts held credentials, those learnt from bodies sent and tokens received, and bearer shapes', () => {
    const s = new Secrets();
    s.add('sk_live_abcdefgh1234');
    s.add('short');
    s.addFromRequest('grant_type=authorization_code&code=code_0123456789&code_verifier=verifier_0123456789abc');
    s.addFromRequest({ refresh_token: 'rt_json_0123456789', name: 'not a secret' });
    s.addFromResponse({ access_token: 'at_new_0123456789', code: 'not_found_but_long' });
    const text = s.redact(
      'k=sk_live_abcdefgh1234 c=code_0123456789 v=verifier_0123456789abc r=rt_json_0123456789 a=at_new_0123456789 ' +
        'Authorization: Bearer other_0123456789 short not a secret not_found_but_long',
    );
    expect(text).toBe(
      'k=REDACTED c=REDACTED v=REDACTED r=REDACTED a=REDACTED Authorization: Bearer REDACTED short not a secret not_found_but_long',
    );
  });

  it('leaves prose about credentials alone', () => {
    const text = 'A bearer token is required; api_key: This field is required. Basic plan.';
    expect(new Secrets().redact(text)).toBe(text);
  });
});

function term(tty: boolean): { term: Terminal; err: () => string } {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (c: Buffer) => (text += c.toString()));
  const io: Io = {
    stdin: Readable.from([]),
    stdout: new PassThrough(),
    stderr,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
  };
  const secrets = new Secrets();
  secrets.add('sk_live_abcdefgh1234');
  return {
    term: new Terminal(io, { quiet: false, color: true, debug: true, yes: false, cwd: '/', secrets }),
    err: () => text,
  };
}

describe('the terminal object', () => {
  it('notices, warnings and debug lines are escaped and redacted; its own colour stays', () => {
    const { term: t, err } = term(true);
    t.notice('name \x1b]0;x\x07 key sk_live_abcdefgh1234');
    t.warn('\u009b2J');
    t.debugLine('< 200 Bearer sk_live_abcdefgh1234 \r');
    expect(err()).toBe(
      String.raw`name \x1b]0;x\x07 key REDACTED` +
        '\n' +
        '\x1b[33mwarning:\x1b[39m ' +
        String.raw`\u009b2J` +
        '\n' +
        String.raw`[debug] < 200 Bearer REDACTED \r` +
        '\n',
    );
  });

  it('notices and warnings show format characters from data as escapes (a reversed or disguised handle)', () => {
    const { term: t, err } = term(false);
    t.notice('Enriched photo_\u202Egnp.exe and na\u200Bsa');
    t.warn('\uFEFFbom \u2066isolated\u2069');
    expect(err()).toBe(
      String.raw`Enriched photo_\u202egnp.exe and na\u200bsa` +
        '\n' +
        String.raw`warning: \ufeffbom \u2066isolated\u2069` +
        '\n',
    );
  });

  it('a confirmation question without a terminal fails with the question escaped', async () => {
    const { term: t } = term(false);
    await expect(t.confirm('Delete \x1b[2J?')).rejects.toThrow('Confirmation needed: Delete \\x1b[2J?');
  });
});

describe('printError', () => {
  it('text: message, hint and stop line escaped and redacted; JSON: redacted, C1 escaped', () => {
    const secrets = new Secrets();
    secrets.add('sk_live_abcdefgh1234');
    let text = '';
    const stderr = new PassThrough();
    stderr.on('data', (c: Buffer) => (text += c.toString()));
    const io: Io = {
      stdin: Readable.from([]),
      stdout: new PassThrough(),
      stderr,
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
    };
    const err = {
      message: 'bad \x1b[2J sk_live_abcdefgh1234 \u009b',
      code: 'http_400',
      hint: 'hint \x07',
      spent: { spentMilli: 1500, kept: 'x\rkept' },
    };
    printError(io, { format: 'table', color: false, secrets }, err);
    expect(text).toBe(
      String.raw`error: bad \x1b[2J REDACTED \u009b` +
        '\n' +
        String.raw`hint \x07` +
        '\n' +
        String.raw`Spent 1.5 credits in this run; x\rkept.` +
        '\n',
    );
    text = '';
    printError(io, { format: 'json', color: false, secrets }, err);
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    const parsed = JSON.parse(text) as { error: { message: string; spent: { kept: string } } };
    expect(parsed.error.message).toBe('bad \x1b[2J REDACTED \u009b');
    expect(parsed.error.spent.kept).toBe('x\rkept');
  });
});

describe('format characters', () => {
  it('bidi controls, zero-width characters and the BOM are shown as escapes; the writing joiners stay', () => {
    expect(escapeControls('nasa\u202Egnp.exe')).toBe(String.raw`nasa\u202egnp.exe`);
    expect(escapeControls('\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C')).toBe(
      String.raw`\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c`,
    );
    expect(escapeControls('na\u200Bsa n\u200Casa n\u200Dasa \uFEFFnasa x\u2060y')).toBe(
      String.raw`na\u200bsa n\u200casa n\u200dasa \ufeffnasa x\u2060y`,
    );
    // Writing, not disguise: an emoji ZWJ sequence, Persian ZWNJ, a Devanagari half form.
    for (const text of ['👩\u200D💻 dev', '👍🏽\u200D🔥', 'می\u200Cخواهم', 'क्\u200Dष', 'é 😀 漢字'])
      expect(escapeControls(text)).toBe(text);
    // A joiner between an emoji and a Latin letter, or at the ends, is not writing.
    expect(escapeControls('😀\u200Da \u200D😀')).toBe(String.raw`😀\u200da \u200d😀`);
  });

  it('JSON writes them as \\u escapes and parses back to the same data', () => {
    const value = { name: 'nasa\u202Egnp', zw: 'a\u200Bb\uFEFF', emoji: '👩\u200D💻' };
    const text = escapeJsonC1(JSON.stringify(value));
    expect(text).toBe('{"name":"nasa\\u202egnp","zw":"a\\u200bb\\ufeff","emoji":"👩\u200D💻"}');
    expect(JSON.parse(text)).toEqual(value);
  });
});
