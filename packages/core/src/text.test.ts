// HD-09, HD-10 (docs/hardening.md): a name others read cannot pass for the service's own, by
// look-alike letters, leet digits or stacked marks; real names in every script still pass.
import { describe, expect, it } from 'vitest';
import { lookAlikeOf, skeleton } from './confusables.ts';
import { ValidationFailed } from './errors.ts';
import { validateDescription, validateName, type NameKind } from './text.ts';

const ACUTE = '\u0301';
const readsAsLatchkey = lookAlikeOf('latchkey');

function refusal(value: string, kind: NameKind): ValidationFailed | undefined {
  try {
    validateName(value, kind);
    return undefined;
  } catch (err) {
    if (err instanceof ValidationFailed) return err;
    throw err;
  }
}

/** Legitimate names, several decomposed (NFD) as some keyboards and macOS send them. */
const REAL_NAMES: Array<[string, string]> = [
  ['Vietnamese, decomposed (2 marks on ệ and ị)', 'Nguyễn Thị Minh Khai'.normalize('NFD')],
  ['French and Spanish', 'Zoë Saldaña-Lefèvre'],
  ['Devanagari', 'अनुष्का शर्मा'],
  ['Thai (vowel and tone mark)', 'สมศักดิ์ ผู้ใหญ่'],
  ['pointed Hebrew', 'שָׁלוֹם כֹּהֵן'],
  ['Arabic with shadda and vowels', 'مُحَمَّد'],
  ['Tibetan stacks', 'བསྒྲུབས་པ'],
  ['Myanmar', 'ကျွန်ုပ် အောင်'],
  ['Japanese', '山田 はなこ'],
  ['Korean', '김민준'],
  ['Cyrillic', 'Погода'],
  ['Greek', 'Ωμέγα'],
  ['accents, CJK and emoji', 'Météo – 天気 ☀️'],
  ['the demo account', 'Demo Developer'],
  ['a name near the word', 'Keylatch Locksmiths'],
];

describe('HD-10 confusable skeleton (UTS #39)', () => {
  it('HD-10 Cyrillic and Greek look-alikes have the skeleton of the Latin word', () => {
    expect(skeleton('L\u0430tchk\u0435y')).toBe(skeleton('Latchkey')); // Cyrillic а, е
    expect(skeleton('\u0399\u0430tchkey')).toBe(skeleton('latchkey')); // Greek Ι reads as l
    expect(skeleton('Latchkey')).not.toBe(skeleton('Latchkay'));
  });

  it.each([
    ['Latchkey'],
    ['LATCHKEY'],
    ['Iatchkey'], // capital i
    ['L\u0430tchk\u0435y'], // Cyrillic а, е
    ['\u13DEatchkey'], // Cherokee Ꮮ
    ['Ｌａｔｃｈｋｅｙ'], // full-width
    ['L a t c h - k e y'],
    ['L\u00e1tchkey'], // precomposed á
    ['Latchk3y'],
    ['L@tchk3y'],
    ['1atchkey'],
    ['La7chkey'],
    ['LATCHK\u0417Y'], // Cyrillic З reads as 3, then as E
  ])('HD-10 %j reads as "latchkey"', (text) => {
    expect(readsAsLatchkey(text)).toBe(true);
  });

  it.each(REAL_NAMES)('HD-10 %s does not read as "latchkey"', (_what, name) => {
    expect(readsAsLatchkey(name)).toBe(false);
  });
});

describe('HD-09 HD-10 validateName', () => {
  it.each([['Latchkey'], ['Latchkey Team'], ['L\u0430tchkey']])(
    'HD-09 a user may not be named %j (the label of the service’s own clients)',
    (name) => {
      expect(refusal(name, 'name')).toMatchObject({ field: 'name' });
      expect(refusal(name, 'name')!.description).toContain('Latchkey');
    },
  );

  it.each([
    ['Lаtchkеy Portal (Cyrillic а and е)', 'L\u0430tchk\u0435y Portal'],
    ['Latchk3y Developer Portal', 'Latchk3y Developer Portal'],
    ['A and 90 combining acute accents', 'A' + ACUTE.repeat(90)],
  ])('HD-10 a client may not be named %s', (_what, name) => {
    expect(refusal(name, 'client name')).toMatchObject({ field: 'name' });
  });

  it.each(REAL_NAMES)('HD-10 %s is accepted as a user and a client name', (_what, name) => {
    expect(validateName(name, 'name')).toBe(name);
    expect(validateName(name, 'client name')).toBe(name);
  });

  it('HD-09 a token name, read only by its owner, may say Latchkey', () => {
    expect(validateName('Latchkey CLI on my laptop', 'token name')).toBe('Latchkey CLI on my laptop');
  });

  it('HD-10 at most 4 nonspacing marks on one character, none twice, in every kind of name', () => {
    const four = 'a\u0301\u0302\u0303\u0308';
    expect(validateName(`Caf${four}`, 'token name')).toBe(`Caf${four}`);
    for (const kind of ['name', 'client name', 'token name'] as const) {
      expect(refusal(`Caf${four}\u0304`, kind), kind).toMatchObject({ field: 'name' });
      expect(refusal(`Cafe${ACUTE}${ACUTE}`, kind), kind).toMatchObject({ field: 'name' });
      expect(refusal(`Caf\u00e9${ACUTE}`, kind), kind).toMatchObject({ field: 'name' }); // é precomposed, then ´ again
      expect(refusal('A' + ACUTE.repeat(90), kind)!.description).toContain('marks');
    }
  });

  it('HD-10 a description may not stack marks either', () => {
    expect(() => validateDescription(`Zalgo A${ACUTE.repeat(90)}`)).toThrow(
      expect.objectContaining({ field: 'description' }),
    );
    expect(validateDescription('Météo pour Nguyễn'.normalize('NFD'))).toBe('Météo pour Nguyễn'.normalize('NFD'));
  });

  it('HD-10 the check costs microseconds per name (it runs on every create and edit)', () => {
    const names = [
      'Lаtchkеy Portal – Météo 天気 ☀️ '.repeat(4).slice(0, 100),
      'Nguyễn Thị Minh Khai, Zoë Saldaña, अनुष्का शर्मा, 山田 はなこ, Погода'.normalize('NFD').slice(0, 100),
      'Weather Station for Developers and Friends of the Open Web, with a rather long name'.slice(0, 100),
    ];
    for (const name of names) refusal(name, 'client name'); // warm up
    const rounds = 2000;
    const started = performance.now();
    for (let i = 0; i < rounds; i++) for (const name of names) refusal(name, 'client name');
    const perName = ((performance.now() - started) * 1000) / (rounds * names.length);
    console.log(`HD-10 validateName: ${perName.toFixed(1)} µs per 100-character name`);
    expect(perName).toBeLessThan(500);
  });
});
