/**
 * HD-12: the guessable shapes that zxcvbn's score lets through. `Summer2026!!` scores exactly 3
 * (10^8 guesses): zxcvbn costs `2026!!` as six brute-forced characters (10^6) instead of a year and
 * two symbols, so a season, a month, a keyboard walk or a breached password with a year and a few
 * symbols added clears the bar, while a cracker's rule set ("word + year + !") finds it among its
 * first million tries. Here the password is taken apart as a cracker does: lowercased, leet undone,
 * the digits and symbols around a single word set aside; it is refused when that word is a breached
 * password, a common word or name, or a keyboard walk, and what was set aside is a year or at most
 * four digits and a few symbols.
 *
 * The breached-password list is zxcvbn-ts's own `passwords-common` (49,233 passwords from the
 * SecLists/Xato ten-million breach corpus, lowercased; MIT, released with @zxcvbn-ts/language-common
 * and already loaded for the score), so checking it offline adds no package, no file and no network
 * call: see docs/hardening.md HD-12 for the candidates weighed.
 */

/** The lists the check needs, all from the zxcvbn-ts dictionaries loaded by password-policy.ts. */
export interface PatternLists {
  /** Breached passwords, lowercased. */
  passwords: readonly string[];
  /** Common words, first names, Wikipedia's frequent words, seasons, months and days, lowercased. */
  words: readonly (readonly string[])[];
  /** Keyboard layouts: key → the keys around it (each entry the unshifted and shifted character). */
  keyboards: readonly Readonly<Record<string, readonly (string | null)[]>>[];
}

/** The lookalikes crackers undo first; `1` stands for `i` as often as for `l`, so both are tried. */
const LEET: readonly Readonly<Record<string, string>>[] = [
  { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i', '|': 'l', '+': 't' },
  { '0': 'o', '1': 'l', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'l', '|': 'l', '+': 't' },
];

/** A year from 1900 to 2099, alone or with a day or month (two digits) on either side, or up to four digits. */
const GUESSABLE_DIGITS = /^(?:\d{0,4}|(?:19|20)\d\d\d\d|\d\d(?:19|20)\d\d)$/;
const YEAR = /(?:19|20)\d\d/;
/** Up to four symbols or spaces, or one symbol repeated (`!!!!!!`). */
const GUESSABLE_SYMBOLS = /^(?:[^\p{L}\p{N}]{0,4}|([^\p{L}\p{N}])\1*)$/u;
/** One run of letters (which may hold lookalikes) with digits and symbols only around it. */
const SHAPE = /^([^\p{L}]*)(\p{L}|\p{L}[^]*\p{L})([^\p{L}]*)$/u;
/** A keyboard walk shorter than this is as likely a word's letters that happen to be neighbours. */
const MIN_WALK = 4;

export type PatternKind = 'breached' | 'decorated';

export class PasswordPatterns {
  readonly #passwords: ReadonlySet<string>;
  readonly #words: ReadonlySet<string>;
  readonly #keyboards: PatternLists['keyboards'];

  constructor(lists: PatternLists) {
    this.#passwords = new Set(lists.passwords);
    this.#words = new Set(lists.words.flat());
    this.#keyboards = lists.keyboards;
  }

  /**
   * Why the (NFKC) password is guessable, or undefined. A whole password on the breached list is
   * "commonly used"; a breached password, word, name or keyboard walk with a year, digits or symbols
   * added says which.
   */
  reason(password: string): string | undefined {
    const lower = password.toLowerCase();
    const shape = SHAPE.exec(lower);
    const whole = [lower, ...LEET.map((table) => unleet(lower, table))];
    if (whole.some((candidate) => this.#passwords.has(candidate))) return 'This is a commonly used password.';
    if (!shape) return undefined;
    const [, before = '', core = '', after = ''] = shape;
    const decoration = before + after;
    // A bare word of 12 letters or more is zxcvbn's to judge (a dictionary word scores low).
    if (decoration === '') return undefined;
    const digits = decoration.replace(/\D/g, '');
    const symbols = decoration.replace(/\d/g, '');
    if (!GUESSABLE_DIGITS.test(digits) || !GUESSABLE_SYMBOLS.test(symbols)) return undefined;
    const added = YEAR.test(digits) ? 'a year' : 'a few digits or symbols';
    for (const word of new Set([core, ...LEET.map((table) => unleet(core, table))])) {
      if (!/^\p{L}+$/u.test(word)) continue;
      if (this.#words.has(word)) return `A common word or name with ${added} added is easy to guess.`;
      if (this.#passwords.has(word)) return `A common password with ${added} added is easy to guess.`;
      if (this.#isKeyboardWalk(word)) return `A keyboard pattern with ${added} added is easy to guess.`;
    }
    return undefined;
  }

  /** Every letter next to the one before it (or the same key) on one keyboard layout: `qwerty`, `asdfghjkl`. */
  #isKeyboardWalk(word: string): boolean {
    const keys = [...word];
    if (keys.length < MIN_WALK) return false;
    return this.#keyboards.some((graph) =>
      keys.every((key, index) => {
        const previous = keys[index - 1];
        if (index === 0 || previous === key) return graph[key] !== undefined;
        return (graph[previous ?? ''] ?? []).some((neighbour) => neighbour?.includes(key) === true);
      }),
    );
  }
}

function unleet(text: string, table: Readonly<Record<string, string>>): string {
  return [...text].map((char) => table[char] ?? char).join('');
}
