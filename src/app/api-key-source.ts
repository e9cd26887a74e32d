import { UsageError } from '../lib/errors.js';
import type { InputPorts } from '../lib/io/input.js';

/** Where an API key came from, as the user would name it in a message. */
export type ApiKeySource = 'flag' | 'file' | 'env' | 'config';

function describeSource(source: ApiKeySource, path?: string): string {
  switch (source) {
    case 'flag':
      return '--api-key';
    case 'file':
      return path === '-' ? '--api-key-file - (standard input)' : `--api-key-file '${path ?? ''}'`;
    case 'env':
      return 'CREATORS_API_KEY';
    case 'config':
      return "the profile's api-key setting";
  }
}

function describeChar(c: string): string {
  if (c === '\r') return 'a carriage return (CR)';
  if (c === '\n') return 'a line feed (LF)';
  const hex = (c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return (c.codePointAt(0) ?? 0) < 0x80 ? `a control character (U+${hex})` : `a non-ASCII character (U+${hex})`;
}

function checkPrintable(value: string, source: ApiKeySource, path?: string): void {
  const bad = /[^\x20-\x7e]/u.exec(value);
  if (!bad) return;
  throw new UsageError(
    `The API key from ${describeSource(source, path)} contains ${describeChar(bad[0])} at character ${[...value.slice(0, bad.index)].length + 1}; an API key is one line of plain ASCII.`,
    {
      hint:
        source === 'file'
          ? 'The file must hold the key alone (one trailing newline is fine).'
          : 'Copy the key again from the dashboard, without line breaks or typographic characters.',
    },
  );
}

/**
 * Not printable ASCII is a usage error naming the source (never the key): undici would refuse the header as
 * UND_ERR_INVALID_ARG, which reads like a network failure.
 */
export function cleanApiKey(raw: string, source: ApiKeySource, path?: string): string {
  const value = raw.trim().replace(/^Bearer\s+/i, '');
  checkPrintable(value, source, path);
  return value;
}

/** Unlike `--api-key`, the key does not appear in the process list; empty when the file holds none (the caller refuses it). */
export async function readApiKeyFile(ports: InputPorts, path: string): Promise<string> {
  const { readInputText } = await import('../lib/io/input.js');
  const text = await readInputText(ports, path, '--api-key-file');
  const value = text.replace(/^\uFEFF/, '').replace(/\r?\n$/, '');
  // Checked before trimming: a second line is a mistake to report, not whitespace to drop.
  checkPrintable(value, 'file', path);
  return cleanApiKey(value, 'file', path);
}
