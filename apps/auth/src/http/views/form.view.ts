import { CSRF_FIELD } from '../csrf.ts';
import { html, type SafeHtml } from '../html.ts';

export interface TextField {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  autocomplete: string;
  /** Text, or markup such as a link (AX-08: "Sign in instead"). */
  error?: string | SafeHtml | undefined;
  hint?: string;
  autofocus?: boolean;
  maxlength?: number;
  minlength?: number;
}

/**
 * A labelled input whose hint and error are announced with it (aria-describedby), marked
 * aria-invalid when wrong. AX-08: the page sets `autofocus` on its first invalid field.
 */
export function textField(field: TextField): SafeHtml {
  const id = `field-${field.name}`;
  const describedBy = [field.hint ? `${id}-hint` : '', field.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${field.error ? ' field-invalid' : ''}">
    <label for="${id}">${field.label}</label>
    ${field.hint ? html`<p class="hint" id="${id}-hint">${field.hint}</p>` : ''}
    <input
      id="${id}"
      name="${field.name}"
      type="${field.type ?? 'text'}"
      value="${field.value ?? ''}"
      autocomplete="${field.autocomplete}"
      required${
        field.maxlength ? html` maxlength="${field.maxlength}"` : ''
      }${field.minlength ? html` minlength="${field.minlength}"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}${
        field.error ? html` aria-invalid="true"` : ''
      }${field.autofocus ? html` autofocus` : ''}
      spellcheck="false"
    />
    ${field.error ? html`<p class="field-error" id="${id}-error">${field.error}</p>` : ''}
  </div>`;
}

export function hiddenField(name: string, value: string | undefined): SafeHtml {
  return value === undefined ? html`` : html`<input type="hidden" name="${name}" value="${value}" />`;
}

export function csrfField(token: string): SafeHtml {
  return hiddenField(CSRF_FIELD, token);
}

/** Announced on load by screen readers (role=alert). */
export function alertBox(message: string | undefined): SafeHtml {
  return message ? html`<div class="alert" role="alert">${message}</div>` : html``;
}
