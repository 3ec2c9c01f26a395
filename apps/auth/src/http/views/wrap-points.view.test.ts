import { describe, expect, it } from 'vitest';
import { html } from '../html.ts';
import { withWrapPoints } from './wrap-points.view.ts';

describe('AX-12 wrap points', () => {
  it('AX-12 a URL may wrap after / . - _ ? & = and nowhere inside a word', () => {
    expect(withWrapPoints('https://staging.weather.example/a_long-path/callback?x=1&y=2').value).toBe(
      'https://<wbr>staging.<wbr>weather.<wbr>example/<wbr>a_<wbr>long-<wbr>path/<wbr>callback?<wbr>x=<wbr>1&amp;<wbr>y=<wbr>2',
    );
    expect(withWrapPoints('callback_callback_callback_callback').value).toBe(
      'callback_<wbr>callback_<wbr>callback_<wbr>callback',
    );
    expect(withWrapPoints('a-very-long-word-without-breaks-ending-in-callback').value).not.toMatch(
      /callb<wbr>|<wbr>ack/,
    );
  });

  it('AX-12 an email may wrap after its @ too, so a long local part is not cut mid-word', () => {
    expect(withWrapPoints('katherinejohnsonlangleyresearch@nasa.example').value).toBe(
      'katherinejohnsonlangleyresearch@<wbr>nasa.<wbr>example',
    );
  });

  it('AX-12 a value that fits on a line is left as written, escaped', () => {
    expect(withWrapPoints('weather.example').value).toBe('weather.example');
    expect(withWrapPoints('a&b.example').value).toBe('a&amp;b.example');
  });

  it('AX-12 the text is escaped first: markup stays text (CJ-05)', () => {
    const out = html`<strong>${withWrapPoints('"><script>alert(1)</script>.example.example')}</strong>`.value;
    expect(out).not.toContain('<script>');
    expect(out).toBe('<strong>&quot;&gt;&lt;script&gt;alert(1)&lt;/<wbr>script&gt;.<wbr>example.<wbr>example</strong>');
  });
});
