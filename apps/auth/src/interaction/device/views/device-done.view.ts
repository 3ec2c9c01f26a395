import { html, type SafeHtml } from '../../../http/html.ts';
import { layout } from '../../../http/views/layout.view.ts';

/** DV-20: after the decision; the device learns it by polling, so this page only closes the loop. */
export function deviceDonePage(view: { approved: boolean; clientName: string }): SafeHtml {
  if (view.approved) {
    return layout({
      title: 'You can return to your device',
      body: html`<h1 id="page-title">You can return to your device</h1>
        <p class="lead">
          <strong>${view.clientName}</strong> is now signed in to your Latchkey account on your device.
        </p>
        <p>You can close this window. To take the access back later, revoke it from your authorized applications.</p>`,
    });
  }
  return layout({
    title: 'Denied',
    body: html`<h1 id="page-title">Denied</h1>
      <p class="lead">The device was not allowed to access your Latchkey account.</p>
      <p>You can close this window.</p>`,
  });
}
