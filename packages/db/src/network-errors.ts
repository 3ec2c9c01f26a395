/**
 * Socket error codes that mean "the dependency cannot be reached now" (PostgreSQL, Redis, an
 * upstream server): the one list every dependency check uses.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

export function isNetworkErrorCode(code: unknown): boolean {
  return typeof code === 'string' && NETWORK_CODES.has(code);
}
