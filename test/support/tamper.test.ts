import { describe, expect, it } from 'vitest';
import { alterChar, truncate } from './tamper.ts';

describe('tamper helpers (issue 13)', () => {
  const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

  it('alterChar changes exactly the chosen character, for every base62 character and a few others', () => {
    for (const ch of `${BASE62}-_.~`) {
      const value = `lkp_${ch}${ch}${ch}`;
      for (const position of [4, 5, -1]) {
        const altered = alterChar(value, position);
        expect(altered).not.toBe(value);
        expect(altered).toHaveLength(value.length);
        const index = position < 0 ? value.length + position : position;
        for (let i = 0; i < value.length; i++) if (i !== index) expect(altered[i]).toBe(value[i]);
        if (BASE62.includes(ch)) expect(BASE62).toContain(altered[index]);
      }
    }
  });

  it('alterChar refuses a position outside the value', () => {
    expect(() => alterChar('abc', 3)).toThrow(RangeError);
    expect(() => alterChar('abc', -4)).toThrow(RangeError);
    expect(() => alterChar('', 0)).toThrow(RangeError);
  });

  it('truncate removes at least one character and never empties the value', () => {
    expect(truncate('abcd')).toBe('abc');
    expect(truncate('abcd', 3)).toBe('a');
    expect(() => truncate('abcd', 0)).toThrow(RangeError);
    expect(() => truncate('abcd', 4)).toThrow(RangeError);
  });
});
