/**
 * Control characters (U+0000–U+001F, U+007F) never belong in a name or an identifier. U+0000 in
 * particular cannot be stored in PostgreSQL text at all (SQLSTATE 22021), so input carrying one is
 * refused or treated as matching nothing before it reaches a query, the same on both engines.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

/** For lookups by a caller-supplied key: U+0000 can match no stored row on either engine. */
export function canMatchStoredText(text: string): boolean {
  return !text.includes('\u0000');
}
