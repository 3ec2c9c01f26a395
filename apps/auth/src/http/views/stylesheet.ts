/**
 * The pages' only stylesheet, served same-origin so the CSP can stay `style-src 'self'`
 * with no inline styles. Colours meet WCAG AA contrast in both schemes.
 */
export const STYLESHEET = `
:root {
  color-scheme: light dark;
  --bg: #f4f5f9;
  --bg-accent: #e9ebf7;
  --card: #ffffff;
  --border: #dfe2ec;
  --text: #161a25;
  --muted: #545d70;
  --primary: #4338ca;
  --primary-hover: #3730a3;
  --primary-text: #ffffff;
  --secondary-bg: #ffffff;
  --secondary-hover: #f1f2f7;
  --focus: #6366f1;
  --danger: #b42318;
  --danger-bg: #fef3f2;
  --danger-border: #fecdca;
  --success: #067647;
  --shadow: 0 1px 2px rgb(16 24 40 / 6%), 0 12px 32px -12px rgb(16 24 40 / 18%);
  --radius: 14px;
  font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 16px;
  line-height: 1.5;
  -webkit-text-size-adjust: 100%;
}
/* AX-07: light or dark as the OS says, like the portal and its Explorer. */
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1017;
    --bg-accent: #151a2b;
    --card: #161a24;
    --border: #2b3142;
    --text: #e8eaf0;
    --muted: #a4abbb;
    --primary: #8b93ff;
    --primary-hover: #a5acff;
    --primary-text: #0d1017;
    --secondary-bg: #1d2230;
    --secondary-hover: #252b3b;
    --focus: #a5b4fc;
    --danger: #ffb4ab;
    --danger-bg: #2d1416;
    --danger-border: #5c2328;
    --success: #6ce9a6;
    --shadow: 0 1px 2px rgb(0 0 0 / 40%), 0 12px 32px -12px rgb(0 0 0 / 60%);
  }
}
*, *::before, *::after { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body {
  min-height: 100vh;
  background: radial-gradient(1200px 600px at 50% -10%, var(--bg-accent), var(--bg)) fixed, var(--bg);
  color: var(--text);
}
.shell {
  display: flex;
  flex-direction: column;
  align-items: center;
  min-height: 100vh;
  padding: 40px 16px 32px;
}
.masthead { margin-bottom: 24px; }
.brand {
  display: inline-flex;
  align-items: center;
  gap: 10px;
  color: var(--text);
  text-decoration: none;
  font-weight: 650;
  font-size: 1.25rem;
  letter-spacing: -0.01em;
  border-radius: 8px;
}
.brand-mark { color: var(--primary); flex: none; }
.card {
  width: 100%;
  max-width: 420px;
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: var(--radius);
  box-shadow: var(--shadow);
  padding: 32px;
}
.card-wide { max-width: 480px; }
.footnote {
  max-width: 420px;
  margin-top: 24px;
  color: var(--muted);
  font-size: 0.8125rem;
  text-align: center;
}
h1 {
  margin: 0 0 8px;
  font-size: 1.5rem;
  line-height: 1.25;
  letter-spacing: -0.015em;
  font-weight: 700;
}
h2 { margin: 24px 0 8px; font-size: 0.875rem; font-weight: 650; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
p { margin: 0 0 16px; }
.lead { color: var(--muted); margin-bottom: 24px; }
strong { font-weight: 650; }
a { color: var(--primary); text-underline-offset: 2px; }
a:hover { color: var(--primary-hover); }
:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
}
form { margin: 0; }
.field { margin-bottom: 18px; }
label { display: block; font-weight: 600; font-size: 0.9375rem; margin-bottom: 6px; }
.hint { margin: -2px 0 6px; color: var(--muted); font-size: 0.875rem; }
input[type="text"], input[type="email"], input[type="password"] {
  display: block;
  width: 100%;
  min-height: 44px;
  padding: 10px 12px;
  font: inherit;
  color: var(--text);
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: 10px;
  transition: border-color 120ms ease, box-shadow 120ms ease;
}
input:hover { border-color: var(--muted); }
input:focus-visible {
  outline: none;
  border-color: var(--focus);
  box-shadow: 0 0 0 3px color-mix(in srgb, var(--focus) 35%, transparent);
}
.field-invalid input { border-color: var(--danger); }
.field-error { margin: 6px 0 0; color: var(--danger); font-size: 0.875rem; font-weight: 500; }
.alert {
  margin: 0 0 20px;
  padding: 12px 14px;
  border: 1px solid var(--danger-border);
  border-radius: 10px;
  background: var(--danger-bg);
  color: var(--danger);
  font-size: 0.9375rem;
}
.button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 44px;
  padding: 10px 18px;
  font: inherit;
  font-weight: 600;
  border-radius: 10px;
  border: 1px solid transparent;
  cursor: pointer;
  text-decoration: none;
  transition: background-color 120ms ease, border-color 120ms ease;
}
.button-primary { background: var(--primary); color: var(--primary-text); }
.button-primary:hover { background: var(--primary-hover); color: var(--primary-text); }
.button-secondary { background: var(--secondary-bg); color: var(--text); border-color: var(--border); }
.button-secondary:hover { background: var(--secondary-hover); color: var(--text); }
.button-block { width: 100%; }
.actions { display: flex; gap: 12px; margin-top: 24px; }
.actions .button { flex: 1; }
.switch { margin: 24px 0 0; padding-top: 20px; border-top: 1px solid var(--border); text-align: center; color: var(--muted); font-size: 0.9375rem; }
.app-heading { display: flex; align-items: center; gap: 14px; margin-bottom: 20px; }
.app-avatar {
  flex: none;
  display: grid;
  place-items: center;
  width: 48px;
  height: 48px;
  border-radius: 12px;
  background: color-mix(in srgb, var(--primary) 14%, var(--card));
  color: var(--primary);
  font-weight: 700;
  font-size: 1.25rem;
}
.app-heading h1 { margin: 0; font-size: 1.3125rem; overflow-wrap: anywhere; }
.app-owner { margin: 2px 0 0; color: var(--muted); font-size: 0.9375rem; overflow-wrap: anywhere; }
.permissions { list-style: none; margin: 0 0 8px; padding: 0; }
.permissions li { display: flex; gap: 10px; align-items: flex-start; padding: 10px 0; border-bottom: 1px solid var(--border); }
.permissions li:last-child { border-bottom: 0; }
.permissions svg { flex: none; margin-top: 3px; color: var(--success); }
.account {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  padding: 12px 14px;
  border: 1px solid var(--border);
  border-radius: 10px;
  font-size: 0.9375rem;
  overflow-wrap: anywhere;
}
.account-label { color: var(--muted); display: block; font-size: 0.8125rem; }
.account-name, .account-email { display: block; }
.account-email { color: var(--muted); }
.app-description { margin: 0 0 16px; overflow-wrap: anywhere; }
.app-policies { margin: 8px 0 0; color: var(--muted); font-size: 0.875rem; }
.loopback-note { margin: 0 0 16px; padding: 10px 14px; border-radius: 10px; background: color-mix(in srgb, var(--primary) 8%, var(--card)); font-size: 0.9375rem; }
.account form { flex: none; font-size: 0.875rem; }
.redirect-note { margin: 16px 0 0; color: var(--muted); font-size: 0.875rem; overflow-wrap: anywhere; }
.link-button { background: none; border: 0; padding: 0; font: inherit; color: var(--primary); text-decoration: underline; text-underline-offset: 2px; cursor: pointer; border-radius: 4px; }
.link-button:hover { color: var(--primary-hover); }
/* DV-13: a device's user code, typed and shown: fixed-width letters, spaced to read aloud. */
.user-code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; letter-spacing: 0.12em; }
input.user-code { text-transform: uppercase; font-size: 1.25rem; text-align: center; }
.error-code { display: inline-block; margin-bottom: 12px; padding: 2px 8px; border-radius: 999px; background: var(--danger-bg); color: var(--danger); font-size: 0.8125rem; font-weight: 600; }
@media (max-width: 480px) {
  .shell { padding: 24px 12px; }
  .card { padding: 24px 20px; border-radius: 12px; }
  /* AX-09: stacked in DOM order (Deny, then Allow), so the order seen is the order tabbed. */
  .actions { flex-direction: column; }
}
@media (prefers-reduced-motion: reduce) {
  * { transition: none !important; }
}
`;

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4338ca"/><circle cx="12" cy="16" r="5" fill="none" stroke="#fff" stroke-width="2.5"/><path d="M17 16h9m-3 0v4m-3-4v3" fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>`;
