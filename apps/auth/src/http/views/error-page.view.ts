import { html, type SafeHtml } from '../html.ts';
import { layout } from './layout.view.ts';

export interface ErrorPageOptions {
  title: string;
  detail: string;
  /** A short machine-style label shown as a badge, e.g. the HTTP status. */
  badge?: string;
  /** Extra guidance under the message. */
  advice?: string;
}

export function errorPage({ title, detail, badge, advice }: ErrorPageOptions): SafeHtml {
  return layout({
    title,
    body: html`${badge ? html`<span class="error-code">${badge}</span>` : ''}
      <h1 id="page-title">${title}</h1>
      <p role="alert">${detail}</p>
      ${advice ? html`<p class="lead">${advice}</p>` : ''}
      <a class="button button-secondary button-block" href="/">Go to Latchkey</a>`,
  });
}
