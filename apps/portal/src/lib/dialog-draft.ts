import { useEffect, useState } from 'react';

/**
 * AX-11: what was typed in a form dialog survives the trip to sign-in when the session ends
 * while it is open. The form open now registers its fields (useDialogDraft); just before the
 * browser leaves for sign-in (api-client's redirectToSignIn) they are saved in sessionStorage
 * under one key with the page's path and the dialog's identity; back on that page, the page
 * reopens the dialog (hasDialogDraft) and the form takes its fields back (useRestoredDraft),
 * which deletes the draft. Only fields the user typed or chose are saved, never a password, a
 * token or a secret: a form lists its own fields, and a shown-once value is never in a form.
 * Sign-out deletes the draft too (forgetDialogDraft).
 */

const STORAGE_KEY = 'latchkey.dialog-draft';

export type DraftValue = string | boolean | readonly string[];
export type DraftFields = Readonly<Record<string, DraftValue>>;

interface StoredDraft {
  path: string;
  dialog: string;
  fields: DraftFields;
}

/** The form dialog open now, with its fields as last rendered. */
let openForm: { dialog: string; fields: DraftFields } | null = null;

/**
 * Registers the fields of the form dialog on screen (its identity names the dialog and, for an
 * edit, what it edits: `edit-token:<id>`), to be saved if the session ends while it is open.
 */
export function useDialogDraft(dialog: string, fields: DraftFields): void {
  useEffect(() => {
    const entry = { dialog, fields };
    openForm = entry;
    return () => {
      if (openForm === entry) openForm = null;
    };
  });
}

/** Called by the API client as the browser leaves for sign-in: keeps the open form's fields. */
export function saveOpenDialogDraft(): void {
  if (!openForm) return;
  const draft: StoredDraft = { path: window.location.pathname, dialog: openForm.dialog, fields: openForm.fields };
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // Storage full or turned off: the form is lost, as it was before AX-11.
  }
}

function isDraftValue(value: unknown): value is DraftValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}

/** The draft saved for `dialog` on this page, if any; anything malformed is ignored. */
function readDraft(dialog: string): DraftFields | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null');
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { path, dialog: saved, fields } = parsed as Partial<Record<keyof StoredDraft, unknown>>;
  if (path !== window.location.pathname || saved !== dialog) return undefined;
  if (typeof fields !== 'object' || fields === null) return undefined;
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => isDraftValue(value)));
}

/** A page asks whether to reopen one of its dialogs after sign-in. */
export function hasDialogDraft(dialog: string): boolean {
  return readDraft(dialog) !== undefined;
}

/** The dialog identity of the draft saved on this page whose identity starts with `prefix`, if any. */
export function dialogDraftFor(prefix: string): string | undefined {
  try {
    const parsed = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<StoredDraft> | null;
    if (parsed?.path !== window.location.pathname || typeof parsed.dialog !== 'string') return undefined;
    return parsed.dialog.startsWith(prefix) ? parsed.dialog : undefined;
  } catch {
    return undefined;
  }
}

/** Sign-out, or a draft put back in its form: nothing typed stays in the tab. */
export function forgetDialogDraft(): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage turned off: there is nothing in it either.
  }
}

/** A restored draft's fields, each read with the type the form expects (or its fallback). */
export class RestoredDraft {
  readonly #fields: DraftFields;
  constructor(fields: DraftFields) {
    this.#fields = fields;
  }
  text(name: string, fallback: string): string {
    const value = this.#fields[name];
    return typeof value === 'string' ? value : fallback;
  }
  flag(name: string, fallback: boolean): boolean {
    const value = this.#fields[name];
    return typeof value === 'boolean' ? value : fallback;
  }
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.#fields[name];
    return allowed.find((option) => option === value) ?? fallback;
  }
  someOf<T extends string>(name: string, allowed: readonly T[], fallback: T[]): T[] {
    const value = this.#fields[name];
    return Array.isArray(value) ? allowed.filter((option) => value.includes(option)) : fallback;
  }
}

/**
 * The form's fields as they were when the session ended, once, as the dialog opens; the draft
 * is deleted as soon as it is back in the form.
 */
export function useRestoredDraft(dialog: string): RestoredDraft | undefined {
  const [draft] = useState(() => {
    const fields = readDraft(dialog);
    return fields ? new RestoredDraft(fields) : undefined;
  });
  useEffect(() => {
    if (draft) forgetDialogDraft();
  }, [draft]);
  return draft;
}
