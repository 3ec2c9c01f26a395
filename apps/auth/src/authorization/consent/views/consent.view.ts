import { html, type SafeHtml } from '../../../http/html.ts';
import { csrfField, hiddenField } from '../../../http/views/form.view.ts';
import { layout } from '../../../http/views/layout.view.ts';
import { withWrapPoints } from '../../../http/views/wrap-points.view.ts';
import { mixesScripts } from '../mixed-script.ts';
import type { SelfRegistration } from '../self-registration.ts';
import { dynamicByline, metadataDocumentByline, metadataDocumentHeadline, unverifiedNote } from './self-registered.view.ts';

export interface ConsentView {
  requestId: string;
  csrfToken: string;
  clientName: string;
  /** The owner's name or email; "Latchkey" for clients provisioned by the service itself. */
  ownerLabel: string;
  user: { name: string; email: string };
  /**
   * RS-11: the resource server the tokens are for, when it is not the Latchkey API: its registered
   * name and its URI's host (ASCII, as the URL parser serialises it).
   */
  resourceServer?: { name: string; host: string } | undefined;
  /** SC-05: what the application asks for, in registry order; `isNew` when an earlier approval did not cover it. */
  scopes: ReadonlyArray<{ sentence: string; isNew: boolean }>;
  /**
   * Host the browser is sent to afterwards, so the user sees where the answer goes: as
   * registered, ASCII, an internationalized domain in its xn-- (punycode) form (HD-04).
   */
  redirectHost: string;
  /**
   * The same host in Unicode, shown beside it when it differs, unless it mixes scripts (HD-10):
   * then it would be a homograph (`аpple.com` with a Cyrillic а), and only the ASCII form shows.
   */
  redirectHostUnicode?: string | undefined;
  /** The redirect URL is a loopback address: the application runs on this computer. */
  loopback: boolean;
  /** PC-10: a public client (no secret): a browser, mobile, desktop or command-line app. */
  isPublic: boolean;
  /** What the developer says about the application (issue 19); each part optional. */
  description: string | null;
  /** The homepage, linked by its host. */
  homepage: { href: string; host: string } | null;
  policyUri: string | null;
  tosUri: string | null;
  /**
   * Issue 32: set when no person registered the client. A metadata document (CM-15) is
   * introduced by its host, its name only as what it calls itself; a dynamic registration
   * (DR-18) says it registered itself. Either way, a notice that nobody verified it, and
   * never "by Latchkey".
   */
  selfRegistration?: SelfRegistration | undefined;
}

/**
 * Links to the developer's pages open in a new tab and tell them nothing about this page. The
 * text may be a host: it wraps after its dots and hyphens (AX-12).
 */
function externalLink(href: string, text: string): SafeHtml {
  return html`<a href="${href}" target="_blank" rel="noopener noreferrer">${withWrapPoints(text)}</a>`;
}

function policyLinks(view: ConsentView): SafeHtml | string {
  const links = [
    view.policyUri ? externalLink(view.policyUri, 'privacy policy') : undefined,
    view.tosUri ? externalLink(view.tosUri, 'terms of service') : undefined,
  ].filter((link) => link !== undefined);
  if (links.length === 0) return '';
  const joined = links.length === 2 ? html`${links[0]} and ${links[1]}` : links[0];
  return html`<p class="app-policies">Before you allow it, read its ${joined}.</p>`;
}

const check = html`<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
  <path
    d="M4 10.5l4 4 8-9"
    fill="none"
    stroke="currentColor"
    stroke-width="2.2"
    stroke-linecap="round"
    stroke-linejoin="round"
  />
</svg>`;

/**
 * The consent page names the client and its owner; buttons "Allow" and "Deny". Issue 19 adds what
 * the developer registered (description, homepage, policies), each only when given, a note for a
 * loopback redirect URL (CE-09), and "Not you? Switch account". Issue 28 lists the requested scopes,
 * marking those an earlier approval did not cover (SC-05). Issue 29 says when the app is public
 * (PC-10): it holds no secret, so nothing but its redirect URL ties it to its developer. Issue 31
 * names the resource server the tokens are for when it is not the Latchkey API (RS-11). Every
 * value is escaped (CJ-05, CE-11). Issue 37: hosts and the email wrap at their dots and hyphens,
 * not mid-word (AX-12), and Deny and Allow are seen in the order Tab reaches them (AX-09, in the
 * stylesheet).
 */
export function consentPage(view: ConsentView): SafeHtml {
  const hostUnicode =
    view.redirectHostUnicode && !mixesScripts(view.redirectHostUnicode) ? view.redirectHostUnicode : undefined;
  const initial = Array.from(view.clientName.trim())[0]?.toUpperCase() ?? '?';
  const homepage = view.homepage ? html` · ${externalLink(view.homepage.href, view.homepage.host)}` : '';
  const self = view.selfRegistration;
  // CM-15: for a metadata document the host is who the page names; its client_name is a claim.
  const host = self?.kind === 'metadata_document' ? self.host : undefined;
  // Who asks, at the start of a sentence and inside one.
  const subject = host === undefined ? view.clientName : `The app from ${host}`;
  const asker = host === undefined ? view.clientName : `the app from ${host}`;
  return layout({
    title: host === undefined ? `Authorize ${view.clientName}` : `Authorize an app from ${host}`,
    wide: true,
    body: html`<div class="app-heading">
        <div class="app-avatar" aria-hidden="true">${host === undefined ? initial : host[0]!.toUpperCase()}</div>
        <div>
          <h1 id="page-title">${host === undefined ? `Authorize ${view.clientName}` : metadataDocumentHeadline(host)}</h1>
          ${
            self === undefined
              ? html`<p class="app-owner">by ${view.ownerLabel}${homepage}</p>`
              : self.kind === 'metadata_document'
                ? metadataDocumentByline(view.clientName, homepage)
                : dynamicByline(homepage)
          }
          ${view.isPublic ? html`<p class="app-owner">This app runs on your device or in your browser.</p>` : ''}
        </div>
      </div>
      ${self === undefined ? '' : unverifiedNote(self, view.clientName)}
      ${view.description ? html`<p class="app-description">${view.description}</p>` : ''}
      ${
        view.resourceServer
          ? html`<p class="resource-server">
              <strong>${subject}</strong> wants to access your Latchkey account for
              <strong>${view.resourceServer.name}</strong> (${view.resourceServer.host}).
            </p>`
          : host === undefined
            ? html`<p><strong>${view.clientName}</strong> wants to access your Latchkey account.</p>`
            : ''
      }
      ${
        view.loopback
          ? html`<p class="loopback-note" role="note">
              <strong>This application runs on your own computer.</strong> Its answer goes to ${withWrapPoints(view.redirectHost)} on
              this device, not to a website. Allow it only if you started it yourself.
            </p>`
          : ''
      }
      ${
        view.scopes.some((scope) => scope.isNew)
          ? html`<p class="scope-note">You allowed ${asker} before; it now asks for more, marked New.</p>`
          : ''
      }
      <h2>It will be able to</h2>
      <ul class="permissions">
        ${view.scopes.map(
          (scope) =>
            html`<li>
              ${check}<span>${scope.isNew ? html`<strong class="scope-new">New:</strong> ` : ''}${scope.sentence}</span>
            </li>`,
        )}
      </ul>
      <div class="account">
        <div>
          <span class="account-label">Signed in as</span><strong class="account-name">${view.user.name}</strong
          ><span class="account-email">${withWrapPoints(view.user.email)}</span>
        </div>
        <form method="post" action="/oauth/authorize/switch-account" class="switch-account">
          ${csrfField(view.csrfToken)} ${hiddenField('request', view.requestId)}
          <button class="link-button" type="submit">Not you? Switch account</button>
        </form>
      </div>
      <form method="post" action="/oauth/authorize/decision">
        ${csrfField(view.csrfToken)} ${hiddenField('request', view.requestId)}
        <div class="actions">
          <button class="button button-secondary" type="submit" name="decision" value="deny">Deny</button>
          <button class="button button-primary" type="submit" name="decision" value="allow">Allow</button>
        </div>
      </form>
      <p class="redirect-note">
        Either way you will be sent back to
        <strong>${withWrapPoints(view.redirectHost)}</strong>${hostUnicode ? html` (${withWrapPoints(hostUnicode)})` : ''}.
        You can revoke access at any time from your API tokens.
      </p>
      ${policyLinks(view)}`,
  });
}
