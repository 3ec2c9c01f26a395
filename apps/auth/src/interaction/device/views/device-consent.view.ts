import { html, type SafeHtml } from '../../../http/html.ts';
import { csrfField, hiddenField } from '../../../http/views/form.view.ts';
import { layout } from '../../../http/views/layout.view.ts';
import type { SelfRegistration } from '../../../authorization/consent/self-registration.ts';
import {
  dynamicByline,
  metadataDocumentByline,
  metadataDocumentHeadline,
  unverifiedNote,
} from '../../../authorization/consent/views/self-registered.view.ts';

export interface DeviceConsentView {
  /** The verification's key (device-verification.ts) and its own CSRF token. */
  requestId: string;
  csrfToken: string;
  clientName: string;
  /** The owner's name or email; "Latchkey" for clients provisioned by the service itself. */
  ownerLabel: string;
  /** CM-15, DR-18: a client nobody registered is introduced by where it comes from. */
  selfRegistration?: SelfRegistration | undefined;
  /** The code as the device shows it (`WDJB-MJHT`). */
  userCode: string;
  /** The consent page's sentence for each scope (SCOPES[scope].sentence), in registry order. */
  scopes: readonly string[];
  user: { name: string; email: string };
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
 * DV-18: the device's consent page names the app (as the consent page does, a self-registered
 * one by where it comes from), says that a device is asking and shows its code with RFC 8628
 * §5.4's warning (a code can be phished: someone else's device, a code sent by someone else),
 * lists what it will be able to do in the consent page's sentences, and asks Approve or Deny.
 * Every value is escaped.
 */
export function deviceConsentPage(view: DeviceConsentView): SafeHtml {
  const self = view.selfRegistration;
  const host = self?.kind === 'metadata_document' ? self.host : undefined;
  const initial = Array.from(view.clientName.trim())[0]?.toUpperCase() ?? '?';
  return layout({
    title:
      host === undefined ? `Authorize ${view.clientName} on a device` : `Authorize an app from ${host} on a device`,
    wide: true,
    body: html`<div class="app-heading">
        <div class="app-avatar" aria-hidden="true">${host === undefined ? initial : host[0]!.toUpperCase()}</div>
        <div>
          <h1 id="page-title">
            ${host === undefined ? `Authorize ${view.clientName}` : metadataDocumentHeadline(host)}
          </h1>
          ${
            self === undefined
              ? html`<p class="app-owner">by ${view.ownerLabel}</p>`
              : self.kind === 'metadata_document'
                ? metadataDocumentByline(view.clientName, '')
                : dynamicByline('')
          }
        </div>
      </div>
      ${self === undefined ? '' : unverifiedNote(self, view.clientName)}
      <p class="loopback-note device-note" role="note">
        <strong>A device is asking to sign in to your Latchkey account</strong> with the code
        <strong class="user-code">${view.userCode}</strong>. Only continue if you started this yourself, on a device in
        front of you that shows this code.
      </p>
      <h2>It will be able to</h2>
      <ul class="permissions">
        ${view.scopes.map((sentence) => html`<li>${check}<span>${sentence}</span></li>`)}
      </ul>
      <div class="account">
        <div>
          <span class="account-label">Signed in as</span><strong class="account-name">${view.user.name}</strong
          ><span class="account-email">${view.user.email}</span>
        </div>
      </div>
      <form method="post" action="/device/decision">
        ${csrfField(view.csrfToken)} ${hiddenField('request', view.requestId)}
        <div class="actions">
          <button class="button button-secondary" type="submit" name="decision" value="deny">Deny</button>
          <button class="button button-primary" type="submit" name="decision" value="approve">Approve</button>
        </div>
      </form>
      <p class="redirect-note">You can revoke its access at any time from your authorized applications.</p>`,
  });
}
