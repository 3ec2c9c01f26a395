export { TokenPrefix, generateToken, parseToken, hasTokenShape, lastFour, randomBase62 } from './token-format.ts';
export { digest, constantTimeEqual } from './digest.ts';
export { randomPoolBytes } from './random-pool.ts';
export { createSealer } from './sealing.ts';
export type { Sealer, SealPurpose } from './sealing.ts';
