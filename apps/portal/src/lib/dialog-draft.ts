import { createContext, useContext, useEffect, useState } from 'react';

/**
 * AX-11: what was typed in a form dialog survives the trip to sign-in when the session ends
 * while it is open. The form open now registers its fields (useDialogDraft); just before the
 * browser leaves for sign-in (api-client's redirectToSignIn) they are saved in sessionStorage
 * under one key with the page's path, the dialog's identity and the signed-in user's id; back on
 * that page, once the session says who is signed in, the page reopens the dialog
 * (useDraftToReopen) and the form takes its fields back (useRestoredDraft), which deletes the
 * draft. A draft is given back only to the user who typed it: another person signing in at that
 * tab never sees it, and it is deleted unread. Only fields the user typed or chose are saved,
 * never a password, a token or a secret: a form lists its own fields, and a shown-once value is
 * never in a form. Sign-out deletes the draft too (forgetDialogDraft).
 */

const STORAGE_KEY = 'latchkey.dialog-draft';

export type DraftValue = string | boolean | readonly string[];
export type DraftFields = Readonly<Record<string, DraftValue>>;

interface StoredDraft {
  path: string;
  /** The id of the user who typed it. */
  owner: string;
  dialog: string;
  fields: DraftFields;
}

/**
 * The signed-in user's id once the session is known (undefined until then), provided by the
 * app's signed-in frame (AppLayout): shared code and features do not read the session themselves.
 */
export const DraftOwner = createContext<string | undefined>(undefined);

/** The form dialog open now, with its fields as last rendered. */
let openForm: { dialog: string; fields: DraftFields; owner: string | undefined } | null = null;

/**
 * Registers the fields of the form dialog on screen (its identity names the dialog and, for an
 * edit, what it edits: `edit-token:<id>`), to be saved if the session ends while it is open.
 */
export function useDialogDraft(dialog: string, fields: DraftFields): void {
  const owner = useContext(DraftOwner);
  useEffect(() => {
    const entry = { dialog, fields, owner };
    openForm = entry;
    return () => {
      if (openForm === entry) openForm = null;
    };
  });
}

/** Called by the API client as the browser leaves for sign-in: keeps the open form's fields. */
export function saveOpenDialogDraft(): void {
  // Nobody known to give it back to: not kept.
  if (!openForm || openForm.owner === undefined) return;
  const { dialog, fields, owner } = openForm;
  const draft: StoredDraft = { path: window.location.pathname, owner, dialog, fields };
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

/** The draft saved on this page, if any; anything malformed is ignored. */
function readDraft(): StoredDraft | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null');
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { path, owner, dialog, fields } = parsed as Partial<Record<keyof StoredDraft, unknown>>;
  if (path !== window.location.pathname || typeof owner !== 'string' || typeof dialog !== 'string') return undefined;
  if (typeof fields !== 'object' || fields === null) return undefined;
  const values = Object.fromEntries(Object.entries(fields).filter(([, value]) => isDraftValue(value)));
  return { path, owner, dialog, fields: values };
}

/**
 * A page asks which of its dialogs to reopen after sign-in: the identity of the draft the
 * signed-in user left on this page, decided once, when the session says who that is. A draft
 * someone else left is deleted unread. `close` is for the reopened dialog's onClose.
 */
export function useDraftToReopen(): { dialog: string | undefined; close: () => void } {
  const owner = useContext(DraftOwner);
  const [decided, setDecided] = useState<{ dialog: string | undefined; foreign: boolean }>();
  if (decided === undefined && owner !== undefined) {
    const draft = readDraft();
    const foreign = draft !== undefined && draft.owner !== owner;
    // Set while rendering (derived from the session arriving), so the dialog opens in this render.
    setDecided({ dialog: foreign ? undefined : draft?.dialog, foreign });
  }
  const foreign = decided?.foreign === true;
  useEffect(() => {
    if (foreign) forgetDialogDraft();
  }, [foreign]);
  return { dialog: decided?.dialog, close: () => setDecided({ dialog: undefined, foreign }) };
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
  const owner = useContext(DraftOwner);
  const [draft] = useState(() => {
    const saved = readDraft();
    return saved && saved.dialog === dialog && saved.owner === owner ? new RestoredDraft(saved.fields) : undefined;
  });
  useEffect(() => {
    if (draft) forgetDialogDraft();
  }, [draft]);
  return draft;
}
