import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppFrame, PageSkeleton } from './app-frame.tsx';

/** Every element of a frame in document order: its tag, classes, link, label and own text. */
function outline(root: Element): string[] {
  return [root, ...root.querySelectorAll('*')].map((el) => {
    const own = [...el.childNodes]
      .filter((node) => node.nodeType === 3)
      .map((node) => node.textContent?.trim())
      .join('');
    return [
      el.tagName.toLowerCase(),
      el.getAttribute('class') ?? '',
      el.getAttribute('href') ?? '',
      el.getAttribute('aria-label') ?? '',
      el.getAttribute('role') ?? '',
      own,
    ].join('|');
  });
}

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

describe('issue 20: the frame before JavaScript', () => {
  it('PF-03 index.html paints the same frame and skeleton as AppFrame and StartingUp render', () => {
    const page = parse(readFileSync(join(import.meta.dirname, '../../../index.html'), 'utf8'));
    const rendered = parse(
      renderToStaticMarkup(
        <MemoryRouter initialEntries={['/nowhere']}>
          <AppFrame>
            <PageSkeleton label="Loading the developer portal…" />
          </AppFrame>
        </MemoryRouter>,
      ),
    );
    const staticFrame = page.querySelector('#root > .app-shell')!;
    const reactFrame = rendered.querySelector('.app-shell')!;
    // The static page adds only the message for browsers without JavaScript.
    staticFrame.querySelector('noscript')?.remove();
    expect(outline(staticFrame)).toEqual(outline(reactFrame));
    expect([...staticFrame.querySelectorAll('nav a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['API clients', '/clients'],
      ['API tokens', '/tokens'],
      ['Explorer', '/explorer'],
      ['Security log', '/security-log'],
    ]);
  });
});
