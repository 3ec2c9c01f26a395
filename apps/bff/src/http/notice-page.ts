import type { ServerResponse } from 'node:http';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export interface Notice {
  title: string;
  detail: string;
  /** A same-origin link offered as the way out, e.g. starting sign-in again. */
  action?: { href: string; label: string };
}

/**
 * The few pages the BFF renders itself (a failed sign-in start or callback, the SPA not
 * built yet). Self-contained: no script, no external resource (RFC 9700 §4.2.4), styles in
 * one block, which the policy's `style-src 'unsafe-inline'` allows.
 */
export function sendNotice(res: ServerResponse, status: number, notice: Notice): void {
  const action = notice.action
    ? `<p><a href="${escapeHtml(notice.action.href)}">${escapeHtml(notice.action.label)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(notice.title)} · Latchkey</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f6f7f9;color:#1b1f24}
main{max-width:32rem;padding:2rem;background:#fff;border:1px solid #d8dde3;border-radius:12px}
h1{font-size:1.25rem;margin:0 0 .75rem}
a{color:#0b5cd5}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(notice.title)}</h1>
<p>${escapeHtml(notice.detail)}</p>
${action}
</main>
</body>
</html>
`;
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.end(html);
}
