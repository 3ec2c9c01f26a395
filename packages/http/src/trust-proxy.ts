/**
 * TRUST_PROXY as Express understands it: `true`/`false`, a hop count, or a comma-separated
 * list of addresses, subnets or the names `loopback`, `linklocal`, `uniquelocal`.
 * Unset means no proxy is trusted.
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value.trim() === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  return value;
}
