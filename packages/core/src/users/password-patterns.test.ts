import { describe, expect, it } from 'vitest';
import { PasswordPatterns } from './password-patterns.ts';

// Small lists, so each branch is seen on its own; password-policy.test.ts runs the real ones.
const patterns = new PasswordPatterns({
  passwords: ['qwerty', 'letmeinplease'],
  words: [['summer'], ['ada']],
  keyboards: [
    {
      a: [null, 'qQ', 'wW', 'sS', 'zZ', null],
      s: ['aA', 'wW', 'eE', 'dD', 'xX', 'zZ'],
      d: ['sS', 'eE', 'rR', 'fF', 'cC', 'xX'],
      f: ['dD', 'rR', 'tT', 'gG', 'vV', 'cC'],
    },
  ],
});

describe('HD-12 password patterns', () => {
  it('HD-12 a whole breached password, in any case or leet, is commonly used', () => {
    expect(patterns.reason('LetMeInPlease')).toBe('This is a commonly used password.');
    expect(patterns.reason('l3tm31npl3as3')).toBe('This is a commonly used password.');
  });

  it('HD-12 a listed word, breached password or keyboard walk with a year, digits or symbols added says which', () => {
    expect(patterns.reason('SUMM3R1999!!')).toBe('A common word or name with a year added is easy to guess.');
    expect(patterns.reason('!!2099summer')).toBe('A common word or name with a year added is easy to guess.');
    expect(patterns.reason('qwerty4321$')).toBe(
      'A common password with a few digits or symbols added is easy to guess.',
    );
    expect(patterns.reason('asdf2026!')).toBe('A keyboard pattern with a year added is easy to guess.');
  });

  it('HD-12 more than four digits that are not a year, many mixed symbols, or a word off the lists pass', () => {
    expect(patterns.reason('summer918273')).toBeUndefined();
    expect(patterns.reason('summer2026!@#$%')).toBeUndefined();
    expect(patterns.reason('winter2026!!')).toBeUndefined();
    expect(patterns.reason('sad2026!')).toBeUndefined(); // three keys: too short to call a walk
    expect(patterns.reason('summer')).toBeUndefined(); // a bare word is zxcvbn's to judge
    expect(patterns.reason('summer 2026 kettle')).toBeUndefined();
  });
});
