import { describe, expect, it } from 'vitest';
import { randomPoolBytes } from './random-pool.ts';

describe('randomPoolBytes', () => {
  it('hands out each byte once: consecutive draws across a refill never repeat a 32-byte value', () => {
    const seen = new Set<string>();
    // 4 KiB per refill: 500 draws of 32 bytes cross three refills.
    for (let i = 0; i < 500; i++) seen.add(randomPoolBytes(32).toString('hex'));
    expect(seen.size).toBe(500);
  });

  it('returns a copy of the requested length: zeroing the pool behind it leaves the value intact', () => {
    const value = randomPoolBytes(48);
    expect(value).toHaveLength(48);
    // A view of the pool would read back the zeros the pool is filled with after each draw.
    expect(value.some((byte) => byte !== 0)).toBe(true);
    const copy = Buffer.from(value);
    for (let i = 0; i < 200; i++) randomPoolBytes(64);
    expect(value.equals(copy)).toBe(true);
  });

  it('draws larger requests straight from the CSPRNG', () => {
    const big = randomPoolBytes(10_000);
    expect(big).toHaveLength(10_000);
    expect(new Set(big).size).toBeGreaterThan(200);
  });

  it('is uniform enough that no byte value is missing from 64 KiB of draws', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2048; i++) for (const byte of randomPoolBytes(32)) counts[byte]! += 1;
    // 65,536 bytes: 256 expected per value; a stuck or zeroed pool would leave most at 0.
    expect(Math.min(...counts)).toBeGreaterThan(150);
  });
});
