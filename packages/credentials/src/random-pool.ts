import { randomFillSync } from 'node:crypto';

/**
 * Bytes from the CSPRNG, drawn from a buffer refilled 4 KiB at a time. Each `randomFillSync` is a
 * system call (getrandom), about 20 µs in the sandboxed machines Latchkey is measured on, and a
 * token grant makes four of them (two tokens, two row ids): drawn from the pool, one call serves
 * about fifty grants. Node's own `randomUUID` buffers the same way. Every byte is handed out once
 * and zeroed in the pool as it goes, so a later heap dump holds no issued value.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

export function randomPoolBytes(length: number): Buffer {
  if (length > POOL_SIZE) return randomFillSync(Buffer.alloc(length));
  if (offset + length > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = Buffer.from(pool.subarray(offset, offset + length));
  pool.fill(0, offset, offset + length);
  offset += length;
  return out;
}
