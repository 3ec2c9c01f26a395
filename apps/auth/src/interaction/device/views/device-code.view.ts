import { html, type SafeHtml } from '../../../http/html.ts';
import { alertBox, csrfField } from '../../../http/views/form.view.ts';
import { layout } from '../../../http/views/layout.view.ts';

/** The page a person types the device's code on; fits a 390 px phone (DV-28). */
export interface DeviceCodeView {
  csrfToken: string;
  /** What goes in the field: `verification_uri_complete`'s code (DV-22), or what was typed. */
  userCode?: string | undefined;
  error?: string | undefined;
}

/**
 * DV-13: the page a device sends its user to (`verification_uri`): one field for the code the
 * device shows, typed in any case with or without the hyphen (DV-14). No autocomplete (a code
 * is used once), capitals offered by mobile keyboards, and a plain text keyboard: the code is
 * letters. The field is not `required` with a pattern: the server answers every malformed code
 * with the same message as a wrong one (DV-15).
 */
export function deviceCodePage(view: DeviceCodeView): SafeHtml {
  return layout({
    title: 'Connect a device',
    body: html`<h1 id="page-title">Connect a device</h1>
      <p class="lead">Enter the code shown on your device to sign it in to your Latchkey account.</p>
      ${alertBox(view.error)}
      <form method="post" action="/device" novalidate>
        ${csrfField(view.csrfToken)}
        <div class="field${view.error ? ' field-invalid' : ''}">
          <label for="field-user_code">Code</label>
          <p class="hint" id="field-user_code-hint">Eight letters, such as WDJB-MJHT.</p>
          <input
            id="field-user_code"
            class="user-code"
            name="user_code"
            type="text"
            value="${view.userCode ?? ''}"
            autocomplete="off"
            autocapitalize="characters"
            inputmode="text"
            spellcheck="false"
            maxlength="20"
            aria-describedby="field-user_code-hint"
            ${view.error ? html` aria-invalid="true"` : ''}
            autofocus
          />
        </div>
        <button class="button button-primary button-block" type="submit">Continue</button>
      </form>`,
  });
}
