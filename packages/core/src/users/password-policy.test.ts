import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../errors.ts';
import { checkPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-policy.ts';

const ADA = { email: 'ada.lovelace@example.test', name: 'Ada Lovelace' };
const PERSONAL = 'It is made of your name, your email address or the name of this service.';

async function refusal(password: string, context = ADA): Promise<string> {
  const error = await checkPassword(password, context).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, `"${password}" should be refused`).toBeInstanceOf(ValidationFailed);
  expect((error as ValidationFailed).field).toBe('password');
  return (error as ValidationFailed).message;
}

describe('HD-05 passwords (NIST SP 800-63B)', () => {
  it('counts code points: 11 characters are refused, 12 unrelated ones pass, emoji count once', async () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    expect(await refusal('tiny lagoon')).toMatch(/12 to 1024 characters/);
    await expect(checkPassword('tiny lagoon!', ADA)).resolves.toBe('tiny lagoon!');
    expect(await refusal('🦊🌊🎻🪐🍋🚲🧭🎈🦉🌵🫖')).toMatch(/12 to 1024 characters/);
  });

  it('allows at least 64 characters and up to 1024; 1025 are refused', async () => {
    expect(PASSWORD_MAX_LENGTH).toBeGreaterThanOrEqual(64);
    const phrase = 'violet harbour kettle drums under a sleepy mountain of paper cranes ';
    await expect(checkPassword(phrase.repeat(20).slice(0, 1024), ADA)).resolves.toHaveLength(1024);
    expect(await refusal(phrase.repeat(20).slice(0, 1025))).toMatch(/12 to 1024 characters/);
  });

  it('refuses common passwords, keyboard walks and repeats, saying why', async () => {
    expect(await refusal('123456789012')).toContain('This is a commonly used password.');
    expect(await refusal('password1234')).toContain('similar to a commonly used password');
    // Judged as it is hashed (NFKC): full-width letters are the common password itself.
    expect(await refusal('ｐａｓｓｗｏｒｄ１２３４')).toContain('similar to a commonly used password');
    expect(await refusal('ＬＡＴＣＨＫＥＹ２０２６!', ADA)).toContain(PERSONAL);
    expect(await refusal('aaaaaaaaaaaaaaaa')).toContain('Repeated characters');
    for (const password of ['qwertyuiopas', 'iloveyou2024!', 'abcabcabcabc']) {
      expect(await refusal(password)).toMatch(/^Choose a password that is harder to guess\. .+ A few unrelated words make a good one\.$/);
    }
  });

  it('refuses passwords made of the email, the name or the product name', async () => {
    for (const password of [
      'ada.lovelace@example.test',
      'adalovelace1',
      'Lovelace1815!',
      'Ada Lovelace Ada',
      'latchkey2026!',
      'Latchkey Latchkey',
      'LATCHKEY-latchkey',
    ]) {
      expect(await refusal(password)).toContain(PERSONAL);
    }
  });

  it('accepts unrelated words and random strings', async () => {
    for (const password of ['correct horse battery staple', 'plum orbit canvas', 'Tr0ub4dor&3xyz', 'x9#Lq2!vR7@w']) {
      await expect(checkPassword(password, ADA)).resolves.toBe(password);
    }
  });
});

describe('HD-12 season, keyboard and word + year passwords', () => {
  const WORD_YEAR = 'Choose a password that is harder to guess. A common word or name with a year added is easy to guess. A few unrelated words make a good one.';

  it('HD-12 refuses the three passwords of the finding, which zxcvbn scores 3', async () => {
    expect(await refusal('Summer2026!!')).toBe(WORD_YEAR);
    expect(await refusal('Spring2025!!')).toBe(WORD_YEAR);
    expect(await refusal('Qwerty2026!!')).toContain('A common password with a year added is easy to guess.');
  });

  it('HD-12 refuses word + year variants: months, days, names, leet, separators, the year first, symbols between', async () => {
    for (const password of [
      'Winter1999!!',
      'January2024!!',
      'Monday2026!?',
      'Michael1985!!',
      'Elephant2026!',
      'S3cur1ty2026!',
      'Summer-2026!!',
      'Summer 2026!!',
      '2026Summer!!',
      'Summer2026!!!!!!',
      'Autumn122026!',
    ]) {
      expect(await refusal(password)).toBe(WORD_YEAR);
    }
    expect(await refusal('Qwerty!!2026')).toContain('A common password with a year added is easy to guess.');
    expect(await refusal('Lkjhgfdsa2026!')).toContain('A keyboard pattern with a year added is easy to guess.');
    expect(await refusal('Ytrewq2026!!!')).toContain('A keyboard pattern with a year added is easy to guess.');
    expect(await refusal('Butterfly123!!')).toContain('A common word or name with a few digits or symbols added is easy to guess.');
  });

  it('HD-12 keeps passphrases, random strings and a year among other words accepted', async () => {
    for (const password of [
      'violet kettle harbour plum',
      'correct horse battery staple',
      'x9#Lq2!vR7@wPz4k',
      'kettle 1987 harbour plum',
      'Tr0ub4dor&3xyz',
    ]) {
      await expect(checkPassword(password, ADA)).resolves.toBe(password);
    }
  });
});
