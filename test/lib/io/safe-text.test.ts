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
    expect(text).toBe('k=REDACTED c=REDACTED v=REDACTED r=REDACTED a=REDACTED Authorization: Bearer REDACTED short not a secret not_found_but_long');
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
  const io: Io = { stdin: Readable.from([]), stdout: new PassThrough(), stderr, stdinIsTTY: tty, stdoutIsTTY: tty, stderrIsTTY: tty };
  const secrets = new Secrets();
  secrets.add('sk_live_abcdefgh1234');
  return { term: new Terminal(io, { quiet: false, color: true, debug: true, yes: false, cwd: '/', secrets }), err: () => text };
}

describe('the terminal object', () => {
  it('notices, warnings and debug lines are escaped and redacted; its own colour stays', () => {
    const { term: t, err } = term(true);
    t.notice('name \x1b]0;x\x07 key sk_live_abcdefgh1234');
    t.warn('\u009b2J');
    t.debugLine('< 200 Bearer sk_live_abcdefgh1234 \r');
    expect(err()).toBe(
      String.raw`name \x1b]0;x\x07 key REDACTED` + '\n' + '\x1b[33mwarning:\x1b[39m ' + String.raw`\u009b2J` + '\n' + String.raw`[debug] < 200 Bearer REDACTED \r` + '\n',
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
    const io: Io = { stdin: Readable.from([]), stdout: new PassThrough(), stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
    const err = { message: 'bad \x1b[2J sk_live_abcdefgh1234 \u009b', code: 'http_400', hint: 'hint \x07', spent: { spentMilli: 1500, kept: 'x\rkept' } };
    printError(io, { format: 'table', color: false, secrets }, err);
    expect(text).toBe(String.raw`error: bad \x1b[2J REDACTED \u009b` + '\n' + String.raw`hint \x07` + '\n' + String.raw`Spent 1.5 credits in this run; x\rkept.` + '\n');
    text = '';
    printError(io, { format: 'json', color: false, secrets }, err);
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    const parsed = JSON.parse(text) as { error: { message: string; spent: { kept: string } } };
    expect(parsed.error.message).toBe('bad \x1b[2J REDACTED \u009b');
    expect(parsed.error.spent.kept).toBe('x\rkept');
  });
});
