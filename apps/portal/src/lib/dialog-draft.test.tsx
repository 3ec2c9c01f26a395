import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  forgetDialogDraft,
  hasDialogDraft,
  saveOpenDialogDraft,
  useDialogDraft,
  useRestoredDraft,
} from './dialog-draft.ts';

const KEY = 'latchkey.dialog-draft';

function Form({ name }: { name: string }) {
  useDialogDraft('create-token', { name, scopes: ['profile'], public: false });
  return null;
}

function Restored({ seen }: { seen: (text: string, list: string[], flag: boolean) => void }) {
  const draft = useRestoredDraft('create-token');
  seen(
    draft?.text('name', '') ?? '',
    draft?.someOf('scopes', ['profile', 'email'], []) ?? [],
    draft?.flag('x', true) ?? true,
  );
  return null;
}

describe('AX-11 lib/dialog-draft', () => {
  it('AX-11 saves the open form only, under one key with its page; nothing when no form is open', () => {
    window.history.replaceState(null, '', '/tokens?sort=name');
    saveOpenDialogDraft();
    expect(window.sessionStorage.length).toBe(0);
    const view = render(<Form name="Deploy bot" />);
    view.rerender(<Form name="Deploy bot 2" />);
    saveOpenDialogDraft();
    expect(JSON.parse(window.sessionStorage.getItem(KEY)!)).toEqual({
      path: '/tokens',
      dialog: 'create-token',
      fields: { name: 'Deploy bot 2', scopes: ['profile'], public: false },
    });
    view.unmount();
    forgetDialogDraft();
    saveOpenDialogDraft();
    expect(window.sessionStorage.length).toBe(0);
  });

  it('AX-11 restores typed values once, ignoring values of the wrong type or unknown choices, then deletes the draft', () => {
    window.history.replaceState(null, '', '/tokens');
    window.sessionStorage.setItem(
      KEY,
      JSON.stringify({
        path: '/tokens',
        dialog: 'create-token',
        fields: { name: 'Bot', scopes: ['email', 'admin'], x: 'yes', y: { a: 1 } },
      }),
    );
    expect(hasDialogDraft('create-token')).toBe(true);
    expect(hasDialogDraft('create-client')).toBe(false);
    const seen: unknown[] = [];
    render(<Restored seen={(...args) => seen.push(args)} />);
    expect(seen[0]).toEqual(['Bot', ['email'], true]);
    expect(window.sessionStorage.getItem(KEY)).toBeNull();
  });

  it('AX-11 a malformed draft, or one for another page, is no draft', () => {
    window.history.replaceState(null, '', '/tokens');
    window.sessionStorage.setItem(KEY, '{not json');
    expect(hasDialogDraft('create-token')).toBe(false);
    window.sessionStorage.setItem(KEY, JSON.stringify({ path: '/clients', dialog: 'create-token', fields: {} }));
    expect(hasDialogDraft('create-token')).toBe(false);
  });
});
