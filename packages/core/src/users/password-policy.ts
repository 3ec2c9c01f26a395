import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { ValidationFailed } from '../errors.ts';
import { PasswordPatterns } from './password-patterns.ts';

/**
 * NIST SP 800-63B §3.1.1.2 (HD-05): at least 12 characters, up to 1024 (the guideline asks for
 * no limit below 64), no composition rules, and refused when it is common or built from the
 * account's own details. Length counts code points, so an emoji is one character.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * zxcvbn's score 3 ("safely unguessable", at least 10^8 guesses) is the bar: below it the password
 * is in, or close to, the common-password and English dictionaries, a keyboard walk, a repeat or a
 * sequence. Only the first 64 characters are analysed and leet substitutions are tried three at a
 * time: the check runs before any account exists, so its cost must stay bounded (about 25 ms at
 * worst, against seconds for a 256-character password on the library's defaults).
 */
const MIN_SCORE = 3;
const ANALYSED_LENGTH = 64;
const PRODUCT_WORDS = ['latchkey'];

interface Estimator {
  zxcvbn: ZxcvbnFactory;
  /** HD-12: breached passwords and words with a year or symbols added, which the score misses. */
  patterns: PasswordPatterns;
}

let estimator: Promise<Estimator> | undefined;

/**
 * The dictionaries and the breached-password list are a few megabytes: loaded on the first check,
 * not at every start.
 */
function loadEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    const zxcvbn = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      maxLength: ANALYSED_LENGTH,
      l33tMaxSubstitutions: 3,
    });
    const patterns = new PasswordPatterns({
      passwords: common.dictionary['passwords-common'],
      words: [
        en.dictionary['commonWords-en'],
        en.dictionary['firstnames-en'],
        en.dictionary['wikipedia-en'],
        en.dictionary['seasons-en'],
        en.dictionary['months-en'],
        en.dictionary['daysOfWeek-en'],
      ],
      keyboards: [common.adjacencyGraphs.qwerty, common.adjacencyGraphs.qwertz, common.adjacencyGraphs.azerty, common.adjacencyGraphs.dvorak],
    });
    return { zxcvbn, patterns };
  })();
  // A load that failed (a file missing mid-deploy) is tried again by the next sign-up.
  estimator.catch(() => {
    estimator = undefined;
  });
  return estimator;
}

/** The words of the account that a password must not be made of: the email, its parts, the name and its words. */
function contextWords(context: { email: string; name: string }): string[] {
  const local = context.email.split('@')[0] ?? '';
  const nameWords = context.name.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return [
    context.email,
    local,
    ...local.split(/[^\p{L}\p{N}]+/u),
    context.name.toLowerCase(),
    nameWords.join(''),
    ...nameWords,
    ...PRODUCT_WORDS,
  ].filter((word) => word.length >= 3);
}

/**
 * True when the password is nothing but the account's words (repeated, recased, with punctuation
 * between): "Latchkey Latchkey" scores well as a repeat of a capitalised word, yet says nothing
 * an attacker who knows the account would not try first.
 */
function madeOfOnly(password: string, words: string[]): boolean {
  let rest = password.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  for (const word of [...words].sort((a, b) => b.length - a.length)) rest = rest.replaceAll(word.replace(/[^\p{L}\p{N}]+/gu, ''), '');
  return [...rest].length < 4;
}

/**
 * Throws ValidationFailed('password') saying why, or returns the password unchanged. Judged
 * in NFKC, the form it is hashed in (password.ts): full-width `ｐａｓｓｗｏｒｄ１２３４` is
 * `password1234` to the hash, so it is to the check too.
 */
export async function checkPassword(given: string, context: { email: string; name: string }): Promise<string> {
  const password = given.normalize('NFKC');
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw new ValidationFailed(
      'password',
      `Use a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters. A few unrelated words make a good one.`,
    );
  }
  const words = contextWords(context);
  const { zxcvbn, patterns } = await loadEstimator();
  const result = zxcvbn.check(password, words);
  const onlyAccountWords = madeOfOnly(password, words);
  if (result.score >= MIN_SCORE && !onlyAccountWords) {
    // HD-12: checked after the score, so what zxcvbn refuses keeps zxcvbn's more specific reason.
    const guessable = patterns.reason(password);
    if (guessable === undefined) return given;
    throw new ValidationFailed('password', `Choose a password that is harder to guess. ${guessable} A few unrelated words make a good one.`);
  }
  const personal =
    onlyAccountWords ||
    result.sequence.some((match) => match.pattern === 'dictionary' && match.dictionaryName === 'userInputs');
  const why = personal
    ? 'It is made of your name, your email address or the name of this service.'
    : (result.feedback.warning ?? 'It follows a pattern that is easy to guess.');
  throw new ValidationFailed('password', `Choose a password that is harder to guess. ${why} A few unrelated words make a good one.`);
}
