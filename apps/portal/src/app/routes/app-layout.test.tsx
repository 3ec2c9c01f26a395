import { waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { db } from '../../testing/mocks/db.ts';
import { server } from '../../testing/mocks/server.ts';
import { expectSignInRedirect, renderApp, screen } from '../../testing/test-utils.tsx';

describe('portal frame', () => {
  it('shows the navigation with its exact names and the signed-in user’s name', async () => {
    renderApp('/tokens');
    const nav = await screen.findByRole('navigation', { name: 'Portal' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['API clients', '/clients'],
      ['API tokens', '/tokens'],
      ['Explorer', '/explorer'],
      ['Security log', '/security-log'],
    ]);
    expect(await screen.findByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'API tokens' }).getAttribute('aria-current')).toBe('page');
    expect(await screen.findByRole('heading', { level: 1, name: 'API tokens' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('API tokens · Latchkey'));
  });

  it('navigates between pages from the navigation', async () => {
    const { user } = renderApp('/tokens');
    await screen.findByRole('heading', { level: 1, name: 'API tokens' });
    await user.click(screen.getByRole('link', { name: 'API clients' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'API clients' })).toBeTruthy();
    expect(window.location.pathname).toBe('/clients');
  });

  it('opens the API clients page at /', async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'API clients' })).toBeTruthy();
    expect(window.location.pathname).toBe('/clients');
  });

  it('says that sign-in failed instead of starting another sign-in (/?error=signin_failed)', async () => {
    renderApp('/?error=signin_failed');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign-in did not complete' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/bff/login?returnTo=%2Fclients');
    expect(window.location.assign).not.toHaveBeenCalled();
    expect(db.requests).toHaveLength(0);
  });

  it('shows a not-found page for unknown paths, inside the frame', async () => {
    renderApp('/nowhere');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Portal' })).toBeTruthy();
  });

  it('signs out with a POST carrying the portal header, then goes on to the authorization server’s end-session endpoint (SO-06)', async () => {
    window.localStorage.setItem(`latchkey:explorer:${db.user.id}:graphiql:query`, '{ secretOfAda }');
    window.localStorage.setItem('graphiql:tabState', '{}');
    window.localStorage.setItem('unrelated', 'kept');
    const { user } = renderApp('/clients');
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Sign out' }));

    await waitFor(() => expect(window.location.assign).toHaveBeenCalledWith('/bff/end-session'));
    // SO-08: the Explorer's query, tabs and history of this user are gone; other data stays.
    expect(Object.keys(window.localStorage)).toEqual(['unrelated']);
    const logout = db.requests.find((r) => r.path === '/bff/logout')!;
    expect(logout.method).toBe('POST');
    expect(logout.headers.get('X-Latchkey-Portal')).toBe('1');
    // The POST came first: the portal session is gone before the browser leaves.
    expect(db.signedIn).toBe(false);
  });

  it('the signed-out page (where the end-session endpoint sends the browser) offers a sign-in that asks for the password', async () => {
    const { queryClient } = renderApp('/signed-out');
    expect(await screen.findByRole('heading', { level: 1, name: 'You have signed out' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe(
      '/bff/login?returnTo=%2Fclients&prompt=login',
    );
    await waitFor(() => expect(queryClient.getQueryCache().getAll()).toHaveLength(0));
    expect(window.location.assign).not.toHaveBeenCalled();
  });

  it('reports a failed sign-out in a toast and stays signed in', async () => {
    server.use(http.post('/bff/logout', () => new HttpResponse(null, { status: 500 })));
    const { user } = renderApp('/clients');
    await screen.findByText('Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    const notifications = screen.getByRole('region', { name: 'Notifications' });
    expect((await within(notifications).findByRole('alert')).textContent).toContain(
      'Sign-out failed. Try again in a moment.',
    );
    expect(window.location.pathname).toBe('/clients');
  });

  it('sends the user to sign in when the session is gone, with the page to come back to', async () => {
    db.signedIn = false;
    renderApp('/explorer?tab=2');
    await expectSignInRedirect('/explorer?tab=2');
  });
});
