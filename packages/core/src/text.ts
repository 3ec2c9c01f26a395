import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from '@latchkey/contracts';
import { lookAlikeOf } from './confusables.ts';
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
 * UTS #39 §5.4 ("Optional Detection"): more than 4 nonspacing marks (gc=Mn or Me) on one
 * character, or the same mark twice on it, is not writing but a spoof: `A` with 90 accents
 * stacks over the lines around it, `é` with its accent twice reads as `é` (HD-10). Counted in
 * NFD, so precomposed and decomposed input count alike. Real writing stays well inside: 2 in
 * Vietnamese (ệ = e + dot below + circumflex), Thai (consonant, vowel, tone mark), Arabic
 * (shadda + vowel) and pointed Hebrew (shin dot + vowel); Tibetan and Myanmar stacks 2 to 3.
 */
const MAX_MARKS_PER_CHARACTER = 4;
const NONSPACING_MARKS = /[\p{Mn}\p{Me}]+/gu;

function hasStackedMarks(text: string): boolean {
  for (const [run] of text.normalize('NFD').matchAll(NONSPACING_MARKS)) {
    const marks = Array.from(run);
    if (marks.length > MAX_MARKS_PER_CHARACTER || new Set(marks).size < marks.length) return true;
  }
  return false;
}

/** The service's own name: only the clients it provisions itself speak in it (HD-04). */
const readsAsServiceName = lookAlikeOf('latchkey');

/**
 * Which name is being checked; also the noun of its messages. A client's name is on every
 * user's consent page, and a user's name is on the consent page of each client they register
 * ("by <name>", where the service's own clients read "by Latchkey"), so neither may carry the
 * service's name (HD-04, HD-09). A token's name is read only by its owner.
 */
export type NameKind = 'client name' | 'name' | 'token name';
const READ_BY_OTHERS: ReadonlySet<NameKind> = new Set(['client name', 'name']);

/**
 * The one rule for every name a person reads (client, user, token): 1 to 100 visible
 * characters, no character stacked with marks (HD-10), and for the names other people read, not
 * the service's name nor anything that reads as it: compared by Unicode confusable skeleton with
 * case, spaces, punctuation, accents and leet digits set aside (HD-04, HD-09, HD-10).
 */
export function validateName(value: string, kind: NameKind): string {
  const name = value.trim();
  if (name.length === 0 || name.length > MAX_NAME_LENGTH)
    throw new ValidationFailed('name', `Enter a ${kind} of 1 to ${MAX_NAME_LENGTH} characters.`);
  if (INVISIBLE.test(name)) {
    throw new ValidationFailed('name', `The ${kind} must not contain control or invisible formatting characters.`);
  }
  if (hasStackedMarks(name)) {
    throw new ValidationFailed(
      'name',
      `The ${kind} must not stack more than ${MAX_MARKS_PER_CHARACTER} accents or marks on one character, nor repeat one.`,
    );
  }
  if (READ_BY_OTHERS.has(kind) && readsAsServiceName(name)) {
    throw new ValidationFailed(
      'name',
      `A ${kind} may not contain "Latchkey" or a look-alike of it: that name is the service's own.`,
    );
  }
  return name;
}

/**
 * A client's description for its consent page: up to MAX_DESCRIPTION_LENGTH characters of
 * plain text on one paragraph, without the invisible characters or stacked marks a name may not
 * carry (HD-04, HD-10). Blank means none.
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
  if (hasStackedMarks(description)) {
    throw new ValidationFailed(
      'description',
      `The description must not stack more than ${MAX_MARKS_PER_CHARACTER} accents or marks on one character, nor repeat one.`,
    );
  }
  return description;
}

/** For lookups by a caller-supplied key: U+0000 can match no stored row on either engine. */
export function canMatchStoredText(text: string): boolean {
  return !text.includes('\u0000');
}
