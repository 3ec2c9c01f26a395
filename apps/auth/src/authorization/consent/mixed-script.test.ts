// HD-10 (docs/hardening.md): the consent page shows an internationalized redirect host in
// Unicode only when that form is written in one script (UTS #39 §5.1).
import { domainToUnicode } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mixesScripts } from './mixed-script.ts';

describe('HD-10 mixed-script detection', () => {
  it.each([
    ['a Cyrillic а among Latin letters', '\u0430pple.example'],
    ['a Cyrillic а in paypal', 'p\u0430ypal.example'],
    ['an all-Cyrillic label under a Latin one', '\u0430\u0440\u0440\u04cf\u0435.example'],
    ['a Greek ο among Latin letters', 'g\u03bfogle.example'],
    ['Latin and Armenian', 'exa\u0574ple.example'],
    ['Hangul with Latin', '\ud55c\uad6d.example'],
    ['an unassigned code point', 'a\u{50000}.example'],
  ])('HD-10 %s mixes scripts', (_what, host) => {
    expect(mixesScripts(host)).toBe(true);
  });

  it.each([
    ['Latin with an umlaut', 'münchen.example'],
    ['Latin with a port', 'münchen.example:8443'],
    ['Cyrillic', '\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444'],
    ['Greek', 'παράδειγμα.δοκιμή'],
    ['Japanese: Han, Hiragana and Katakana', '例え.テスト'],
    ['Korean: Hangul and Han', '한국어.韓國'],
    ['Chinese', '中文.中国'],
    ['Arabic', 'مثال.إختبار'],
    ['Devanagari with signs', 'उदाहरण.परीक्षा'],
    ['digits and hyphens with Thai', 'ตัวอย่าง-24.ทดสอบ'],
    ['plain ASCII', 'app.example'],
  ])('HD-10 %s is one script', (_what, host) => {
    expect(mixesScripts(host)).toBe(false);
  });

  it('HD-10 costs little for the longest host name', () => {
    const host = domainToUnicode(`xn--mnchen-3ya.${'a'.repeat(60)}.example`).padEnd(253, 'x');
    const started = performance.now();
    for (let i = 0; i < 1000; i++) mixesScripts(host);
    const perHost = ((performance.now() - started) * 1000) / 1000;
    console.log(`HD-10 mixesScripts: ${perHost.toFixed(1)} µs for a 253-character host`);
    expect(perHost).toBeLessThan(2000);
  });
});
