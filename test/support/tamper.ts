// Changing a credential for certain. A test that "tampers" with a token by writing a fixed
// character at some position checks the genuine value whenever the token already had that
// character there (one run in 62 for a base62 position), so it passes or fails by chance
// (issue 13). Every test that forges, flips or truncates a token, secret, code, cookie or
// signature goes through these two functions, which throw rather than return the original.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `value` with the character at `position` (negative counts from the end, as `String.at`)
 * replaced by a different one. A base62 character becomes the next base62 character, so the
 * result keeps the token's alphabet and shape and fails on its content (checksum, signature,
 * digest), not on its format; any other character becomes `A`.
 *
 * Base64 warning: the last character of an unpadded base64 value can carry unused bits, so
 * changing it may decode to the same bytes. Flip an earlier position of a base64 signature.
 */
export function alterChar(value: string, position: number): string {
  const index = position < 0 ? value.length + position : position;
  if (!Number.isInteger(index) || index < 0 || index >= value.length) {
    throw new RangeError(`position ${position} is outside a value of ${value.length} characters`);
  }
  const original = value[index]!;
  const at = BASE62.indexOf(original);
  const replacement = at === -1 ? 'A' : BASE62[(at + 1) % BASE62.length]!;
  const altered = value.slice(0, index) + replacement + value.slice(index + 1);
  if (altered === value || altered.length !== value.length) throw new Error('alterChar did not change the value');
  return altered;
}

/** `value` without its last `count` characters (at least one is removed, and the value was longer). */
export function truncate(value: string, count = 1): string {
  if (!Number.isInteger(count) || count < 1 || count >= value.length) {
    throw new RangeError(`cannot remove ${count} of ${value.length} characters`);
  }
  return value.slice(0, -count);
}
