import { describe, expect, it } from 'vitest';
import { firstInvalidByte } from '../../../src/lib/csv/utf8.js';

describe('firstInvalidByte', () => {
  it('points at the first byte of the invalid sequence', () => {
    expect(firstInvalidByte(Buffer.from('handle\nab\xffcd\n', 'latin1'))).toBe(9);
    expect(firstInvalidByte(Buffer.from('ok é\n', 'utf8'))).toBe(0);
    expect(firstInvalidByte(Buffer.from([0x61, 0xc3, 0x28]))).toBe(1);
  });
});
