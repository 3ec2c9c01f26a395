import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import {
  DraftOwner,
  forgetDialogDraft,
  saveOpenDialogDraft,
  useDialogDraft,
  useDraftToReopen,
  useRestoredDraft,
} from './dialog-draft.ts';

const KEY = 'latchkey.dialog-draft';

function As({ owner, children }: { owner: string | undefined; children: ReactNode }) {
  return <DraftOwner value={owner}>{children}</DraftOwner>;
}

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

/** What a page would reopen, render by render. */
function Reopen({ seen }: { seen: (dialog: string | undefined) => void }) {
  seen(useDraftToReopen().dialog);
  return null;
}

function store(draft: Record<string, unknown>): void {
  window.sessionStorage.setItem(KEY, JSON.stringify(draft));
}

describe('AX-11 lib/dialog-draft', () => {
  it('AX-11 saves the open form only, under one key with its page and its user; nothing when no form is open or nobody is known', () => {
    window.history.replaceState(null, '', '/tokens?sort=name');
    saveOpenDialogDraft();
    expect(window.sessionStorage.length).toBe(0);
    const view = render(
      <As owner="usr_ada">
        <Form name="Deploy bot" />
      </As>,
    );
    view.rerender(
      <As owner="usr_ada">
        <Form name="Deploy bot 2" />
      </As>,
    );
    saveOpenDialogDraft();
    expect(JSON.parse(window.sessionStorage.getItem(KEY)!)).toEqual({
      path: '/tokens',
      owner: 'usr_ada',
      dialog: 'create-token',
      fields: { name: 'Deploy bot 2', scopes: ['profile'], public: false },
    });
    view.unmount();
    forgetDialogDraft();
    saveOpenDialogDraft();
    expect(window.sessionStorage.length).toBe(0);

    // A form open before the session said who is signed in: nobody to give it back to.
    const anonymous = render(
      <As owner={undefined}>
        <Form name="Deploy bot" />
      </As>,
    );
    saveOpenDialogDraft();
    expect(window.sessionStorage.length).toBe(0);
    anonymous.unmount();
  });

  it('AX-11 restores typed values once to the user who typed them, ignoring values of the wrong type or unknown choices, then deletes the draft', () => {
    window.history.replaceState(null, '', '/tokens');
    store({
      path: '/tokens',
      owner: 'usr_ada',
      dialog: 'create-token',
      fields: { name: 'Bot', scopes: ['email', 'admin'], x: 'yes', y: { a: 1 } },
    });
    const reopened: unknown[] = [];
    render(
      <As owner="usr_ada">
        <Reopen seen={(dialog) => reopened.push(dialog)} />
      </As>,
    );
    expect(reopened.at(-1)).toBe('create-token');
    const seen: unknown[] = [];
    render(
      <As owner="usr_ada">
        <Restored seen={(...args) => seen.push(args)} />
      </As>,
    );
    expect(seen[0]).toEqual(['Bot', ['email'], true]);
    expect(window.sessionStorage.getItem(KEY)).toBeNull();
  });

  it('AX-11 the page waits for the session before reopening anything', () => {
    window.history.replaceState(null, '', '/tokens');
    store({ path: '/tokens', owner: 'usr_ada', dialog: 'create-token', fields: { name: 'Bot' } });
    const reopened: unknown[] = [];
    const view = render(
      <As owner={undefined}>
        <Reopen seen={(dialog) => reopened.push(dialog)} />
      </As>,
    );
    expect(reopened).toEqual([undefined]);
    view.rerender(
      <As owner="usr_ada">
        <Reopen seen={(dialog) => reopened.push(dialog)} />
      </As>,
    );
    expect(reopened.at(-1)).toBe('create-token');
    forgetDialogDraft();
  });

  it('AX-11 another user signing in at that tab never sees the draft: nothing reopens, nothing is restored, and it is deleted', () => {
    window.history.replaceState(null, '', '/tokens');
    store({ path: '/tokens', owner: 'usr_ada', dialog: 'create-token', fields: { name: 'Ada’s secret project' } });
    const reopened: unknown[] = [];
    const seen: unknown[] = [];
    render(
      <As owner="usr_grace">
        <Restored seen={(...args) => seen.push(args)} />
        <Reopen seen={(dialog) => reopened.push(dialog)} />
      </As>,
    );
    expect(seen[0]).toEqual(['', [], true]);
    expect(reopened.every((dialog) => dialog === undefined)).toBe(true);
    expect(window.sessionStorage.getItem(KEY)).toBeNull();
  });

  it('AX-11 a malformed draft, one for another page, or one without its user is no draft', () => {
    window.history.replaceState(null, '', '/tokens');
    const drafts = [
      '{not json',
      JSON.stringify({ path: '/clients', owner: 'usr_ada', dialog: 'create-token', fields: {} }),
      JSON.stringify({ path: '/tokens', dialog: 'create-token', fields: {} }),
    ];
    for (const draft of drafts) {
      window.sessionStorage.setItem(KEY, draft);
      const reopened: unknown[] = [];
      const view = render(
        <As owner="usr_ada">
          <Reopen seen={(dialog) => reopened.push(dialog)} />
        </As>,
      );
      expect(reopened.at(-1), draft).toBeUndefined();
      view.unmount();
    }
    forgetDialogDraft();
  });
});
