import unhomoglyph from 'unhomoglyph';

/**
 * UTS #39 §4 skeleton: two strings that look alike have the same skeleton. NFD, each character
 * replaced by its prototype from Unicode's confusables.txt (Cyrillic а → a, Greek Ο → O,
 * `0` → O, `1` and `I` → l, `m` → rn), NFD again. The mapping is the `unhomoglyph` package's
 * (nodeca, MIT; confusables.txt 13.0, which covers the Latin, Greek and Cyrillic look-alikes
 * that matter for an ASCII word). A skeleton is for comparing, never for showing (HD-10).
 */
export function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/**
 * Digits and signs that stand for letters in "leet" spelling (`Latchk3y`, `L@tchkey`). The
 * skeleton already maps `0` to O and `1` to l, and maps look-alikes such as Cyrillic З to `3`,
 * so this runs after it (HD-10).
 */
const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
  '+': 't',
  '€': 'e',
};
const LEET_CHARACTERS = new RegExp(`[${Object.keys(LEET).join('').replace(/[$+]/g, '\\$&')}]`, 'g');

/** Anything that is not a letter or a digit: spaces, punctuation, symbols, and (after NFD) accents. */
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/gu;

/**
 * The form in which a name is searched for a reserved word: NFKC (full-width Ｌ → L), the skeleton
 * of the name as written and of its lower case (capital I reads as l, so case is folded only
 * after the skeleton), lower case, leet undone, and only letters and digits kept, so spaces,
 * punctuation and stacked accents do not hide the word.
 */
function searchForms(text: string): string[] {
  const compatible = text.normalize('NFKC');
  return [compatible, compatible.toLowerCase()].map((variant) =>
    skeleton(variant)
      .toLowerCase()
      .replace(LEET_CHARACTERS, (c) => LEET[c]!)
      .replace(NOT_LETTER_OR_DIGIT, ''),
  );
}

/**
 * A test of whether a text contains `word` (plain ASCII letters) or something that reads as it:
 * for `latchkey`, `Latchkey Team`, `L a t c h k e y`, `Ｌａｔｃｈｋｅｙ`, `Lаtchkеy` (Cyrillic а
 * and е), `Látchkey`, `Latchk3y` (HD-09, HD-10).
 */
export function lookAlikeOf(word: string): (text: string) => boolean {
  const target = searchForms(word)[1]!;
  return (text) => searchForms(text).some((form) => form.includes(target));
}
