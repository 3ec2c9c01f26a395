import { html, type SafeHtml } from '../html.ts';

export const STYLESHEET_PATH = '/assets/latchkey.css';
export const FAVICON_PATH = '/assets/favicon.svg';

/** The key-in-a-rounded-square mark, drawn inline so the pages load nothing but the stylesheet. */
export const brandMark = html`<svg
  class="brand-mark"
  viewBox="0 0 32 32"
  width="32"
  height="32"
  aria-hidden="true"
  focusable="false"
>
  <rect width="32" height="32" rx="8" fill="currentColor" />
  <circle cx="12" cy="16" r="5" fill="none" stroke="#fff" stroke-width="2.5" />
  <path d="M17 16h9m-3 0v4m-3-4v3" fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round" />
</svg>`;

export interface LayoutOptions {
  title: string;
  body: SafeHtml;
  /** A wider card for the consent screen. */
  wide?: boolean;
}

export function layout({ title, body, wide = false }: LayoutOptions): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="robots" content="noindex" />
        <title>${title} · Latchkey</title>
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
        <link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml" />
      </head>
      <body>
        <div class="shell">
          <header class="masthead">
            <a class="brand" href="/">${brandMark}<span class="brand-name">Latchkey</span></a>
          </header>
          <main class="card${wide ? ' card-wide' : ''}" aria-labelledby="page-title">${body}</main>
          <footer class="footnote">
            Latchkey will only ever ask for your password on this site. Never share it, or a code, with anyone.
          </footer>
        </div>
      </body>
    </html> `;
}
