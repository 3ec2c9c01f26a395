import { describe, expect, it } from 'vitest';
import { escapeHtml, html, SafeHtml } from './html.ts';

describe('html tagged template (CJ-05)', () => {
  it('escapes every interpolation: & < > " \' `', () => {
    const name = `<img src=x onerror="alert('1')">&\``;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;">&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;</p>',
    );
  });

  it('nests templates without double escaping, and escapes arrays item by item', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<div>${inner}${['<a>', html`<em>x</em>`]}</div>`.value).toBe(
      '<div><b>&lt;i&gt;</b>&lt;a&gt;<em>x</em></div>',
    );
  });

  it('renders nothing for null, undefined and false; numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${42}`.value).toBe('042');
  });

  it('only SafeHtml passes unescaped', () => {
    expect(html`${new SafeHtml('<hr>')}`.value).toBe('<hr>');
    expect(html`${{ value: '<hr>' } as unknown as string}`.value).toBe('[object Object]');
    expect(escapeHtml('a&amp;')).toBe('a&amp;amp;');
  });
});
