import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * SHA-256 hex digest, the only form in which tokens, codes and client secrets are stored
 * (DD-3, TS-01). A fast hash suits server-generated secrets of
 * 178 bits; a slow one would make the token endpoint a CPU DoS target (CA-08).
 */
export function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Constant-time comparison over fixed-length digests, so neither length nor content leaks
 * through timing (CA-08).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(
    createHash('sha256').update(a, 'utf8').digest(),
    createHash('sha256').update(b, 'utf8').digest(),
  );
}
