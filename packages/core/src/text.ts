import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from '@latchkey/contracts';
import { ValidationFailed } from './errors.ts';

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

/**
 * Characters that change how a name reads without showing themselves (HD-04): control
 * characters, format characters (category Cf: bidi overrides such as U+202E, zero-width
 * U+200B–U+200D, U+2060, U+FEFF, soft hyphen), line and paragraph separators, and the Hangul
 * fillers that render as blanks. A name carrying one can make a consent page say something
 * other than what it is ("Evil App\u202Eppa dooG").
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;

/**
 * The one rule for every name a person reads (client, user, token): 1 to 100 visible
 * characters. `noun` names it in the message ("client name").
 */
export function validateName(value: string, noun: string): string {
  const name = value.trim();
  if (name.length === 0 || name.length > MAX_NAME_LENGTH)
    throw new ValidationFailed('name', `Enter a ${noun} of 1 to ${MAX_NAME_LENGTH} characters.`);
  if (INVISIBLE.test(name)) {
    throw new ValidationFailed('name', `The ${noun} must not contain control or invisible formatting characters.`);
  }
  return name;
}

/**
 * A client's description for its consent page: up to MAX_DESCRIPTION_LENGTH characters of
 * plain text on one paragraph, without the invisible characters a name may not carry (HD-04).
 * Blank means none.
 */
export function validateDescription(value: string): string | null {
  const description = value.trim();
  if (description.length === 0) return null;
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new ValidationFailed('description', `The description must be at most ${MAX_DESCRIPTION_LENGTH} characters.`);
  }
  if (INVISIBLE.test(description)) {
    throw new ValidationFailed(
      'description',
      'The description must not contain line breaks, control or invisible formatting characters.',
    );
  }
  return description;
}

/** For lookups by a caller-supplied key: U+0000 can match no stored row on either engine. */
export function canMatchStoredText(text: string): boolean {
  return !text.includes('\u0000');
}
