import { html, type SafeHtml } from '../../../http/html.ts';
import { withWrapPoints } from '../../../http/views/wrap-points.view.ts';
import type { SelfRegistration } from '../self-registration.ts';

/** The service's name, as the consent page writes it ("your Latchkey account"). */
const SERVICE = 'Latchkey';

/**
 * CM-15: the headline of a metadata-document client names the host its document is on; the
 * name it gives itself is secondary, attributed to it ("calls itself"). A long host wraps at
 * its dots and hyphens (AX-12).
 */
export function metadataDocumentHeadline(host: string): SafeHtml {
  const from = withWrapPoints(host);
  return html`An app from <strong class="app-host">${from}</strong> wants to access your ${SERVICE} account`;
}

export function metadataDocumentByline(clientName: string, homepage: SafeHtml | string): SafeHtml {
  return html`<p class="app-owner">It calls itself “${clientName}”${homepage}</p>`;
}

/** DR-18: in place of "by <owner>": there is none. */
export function dynamicByline(homepage: SafeHtml | string): SafeHtml {
  return html`<p class="app-owner">Registered itself, without an owner${homepage}</p>`;
}

/**
 * CM-15, DR-18: what the user must know before allowing a client nobody vouches for. Styled as
 * the loopback note (the class `unverified-note` names it for a style of its own).
 */
export function unverifiedNote(self: SelfRegistration, clientName: string): SafeHtml {
  if (self.kind === 'metadata_document') {
    return html`<p class="loopback-note unverified-note" role="note">
      <strong>${SERVICE} has not verified this application.</strong> Anyone can publish an app under any name;
      “${clientName}” is only what it says about itself. What is certain is that it comes from
      <strong>${withWrapPoints(self.host)}</strong>: allow it only if you trust ${withWrapPoints(self.host)}.
    </p>`;
  }
  return html`<p class="loopback-note unverified-note" role="note">
    <strong>This application registered itself, and nobody has verified it.</strong> It has no owner that ${SERVICE}
    knows of, and “${clientName}” is the name it chose. Allow it only if you started it yourself and trust where it came
    from.
  </p>`;
}
