export { TokenPrefix, generateToken, parseToken, hasTokenShape, lastFour, randomBase62 } from './token-format.ts';
export { digest, constantTimeEqual } from './digest.ts';
