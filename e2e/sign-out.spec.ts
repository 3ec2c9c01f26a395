// Journey 5: Sign out ends the portal session everywhere (SECURITY.md BF-LO-03): the portal
// shows sign-in again, the browser's cookie is gone, and the old cookie replayed gets 401 on
// every BFF endpoint, also after the user has signed in again.
import { expectPortal, newAccount, signInWith, signUpThroughPortal } from './support/accounts.ts';
import { expect, test } from './support/fixtures.ts';

test('BF-LO-03 sign out and be signed out everywhere; the old session cookie replayed gets 401', async ({
  page,
  context,
  urls,
  playwright,
}) => {
  const account = newAccount('Mary Jackson');
  await signUpThroughPortal(page, account);
  const session = (await context.cookies(urls.portalUrl)).find((c) => /lk_portal_sid$/.test(c.name));
  expect(session, 'the portal session cookie').toBeDefined();
  expect(session!.httpOnly).toBe(true);
  expect(session!.sameSite).toBe('Strict');

  const [logout] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/logout'),
    page.getByRole('button', { name: 'Sign out' }).click(),
  ]);
  expect(logout.status()).toBe(204);

  await test.step('the portal shows sign-in again and the cookie is gone', async () => {
    await expect(page.getByRole('navigation').getByRole('link', { name: 'API clients' })).toHaveCount(0);
    await expect(
      page
        .getByRole('link', { name: 'Sign in' })
        .or(page.getByRole('button', { name: 'Sign in' }))
        .first(),
    ).toBeVisible();
    expect((await context.cookies(urls.portalUrl)).map((c) => c.name)).not.toContain(session!.name);
  });

  await test.step('the old session cookie replayed gets 401 on every BFF endpoint', async () => {
    const replay = await playwright.request.newContext({ baseURL: urls.portalUrl });
    const cookie = { cookie: `${session!.name}=${session!.value}` };
    const write = { ...cookie, 'x-latchkey-portal': '1' };
    const answers = [
      await replay.get('/bff/session', { headers: cookie }),
      await replay.get('/bff/api/me', { headers: cookie }),
      await replay.get('/bff/api/tokens', { headers: cookie }),
      await replay.post('/bff/graphql', { headers: write, data: { query: '{ profile { name } }' } }),
    ];
    for (const answer of answers) {
      expect(answer.status(), answer.url()).toBe(401);
      expect(await answer.json()).toMatchObject({ error: 'unauthenticated' });
    }
    await replay.dispose();
  });

  await test.step('signing in again starts a new session; the old cookie stays dead', async () => {
    await page.getByRole('link', { name: 'Sign in' }).click();
    // The authorization server may still know the browser (its own session) and send it
    // straight back; otherwise it asks for the password.
    await expect(
      page.getByRole('button', { name: 'Sign out' }).or(page.getByLabel('Password', { exact: true })),
    ).toBeVisible();
    if (await page.getByLabel('Password', { exact: true }).isVisible()) await signInWith(page, account);
    await expectPortal(page);
    const fresh = (await context.cookies(urls.portalUrl)).find((c) => c.name === session!.name);
    expect(fresh?.value).toBeDefined();
    expect(fresh!.value).not.toBe(session!.value);
    const replay = await playwright.request.newContext({ baseURL: urls.portalUrl });
    const answer = await replay.get('/bff/session', { headers: { cookie: `${session!.name}=${session!.value}` } });
    expect(answer.status()).toBe(401);
    await replay.dispose();
  });
});
