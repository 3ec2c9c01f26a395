// Journey: a single-page app on another origin (examples/browser-app, plain JavaScript) signs a
// user in as a public client: PKCE from the browser, the token endpoint with client_id alone
// (PC-03), and /graphql with the token, every call cross-origin (CORS, PC-07).
import type { Request } from '@playwright/test';
import { createAccountFromSignIn, newAccount, signUpThroughPortal } from './support/accounts.ts';
import { createPublicClient, startBrowserApp } from './support/browser-app.ts';
import type { ExampleApp } from './support/example-app.ts';
import { expect, test } from './support/fixtures.ts';
import { closeDialog } from './support/portal.ts';
import { reservedPorts } from './support/system-env.ts';

test('PC-01 PC-03 PC-07 a single-page app, registered public in the portal, on another origin signs a user in with PKCE as a public client and calls /graphql from the browser', async ({
  page,
  browser,
  urls,
}) => {
  test.setTimeout(120_000);
  const owner = newAccount('Olive Owner');
  const user = newAccount('Uma User');
  const clientName = 'Pocket Planner';
  const [port, unregisteredPort] = (await reservedPorts(2)) as [number, number];
  const tokenUrl = `${urls.authUrl}/oauth/token`;

  await signUpThroughPortal(page, owner);
  const { clientId } = await createPublicClient(page, clientName, `http://localhost:${port}/callback`);
  await closeDialog(page);

  const apps: ExampleApp[] = [];
  // The user's browser is not given to the leak checks: TS-02 is about what the portal sends;
  // a public client's own page receives its tokens by design.
  const context = await browser.newContext();
  try {
    const spa = await startBrowserApp(urls, clientId, port);
    apps.push(spa);
    const requests: Request[] = [];
    context.on('request', (request) => requests.push(request));
    const tab = await context.newPage();

    await test.step('the user signs in and consents; the page calls /graphql and shows the name', async () => {
      await tab.goto(spa.url);
      await tab.getByRole('button', { name: 'Sign in with Latchkey' }).click();
      await createAccountFromSignIn(tab, user);
      await expect(tab.getByRole('heading', { level: 1, name: `Authorize ${clientName}` })).toBeVisible();
      await expect(tab.getByText('This app runs on your device or in your browser')).toBeVisible();
      await tab.getByRole('button', { name: 'Allow' }).click();
      await expect(tab.getByText(`Signed in as ${user.name}`)).toBeVisible();
      await expect(tab).toHaveURL(`${spa.url}/`);
    });

    await test.step('PKCE S256, the token request with client_id and the verifier, no secret sent, no token stored', async () => {
      const authorize = new URL(requests.find((r) => r.url().startsWith(`${urls.authUrl}/oauth/authorize?`))!.url());
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      const tokenRequests = requests.filter((r) => r.method() === 'POST' && r.url() === tokenUrl);
      expect(tokenRequests).toHaveLength(1);
      const form = new URLSearchParams(tokenRequests[0]!.postData() ?? '');
      expect(form.get('client_id')).toBe(clientId);
      expect(form.get('code_verifier')).toMatch(/^[\w-]{43,128}$/);
      for (const request of requests) {
        const headers = await request.allHeaders();
        const sent = `${request.url()}\n${JSON.stringify(headers)}\n${request.postData() ?? ''}`;
        expect(sent, request.url()).not.toMatch(/client_secret|lks_/);
        expect(headers.authorization ?? '', request.url()).not.toMatch(/^basic /i);
      }
      // The app keeps its tokens in memory only.
      const stored = await tab.evaluate(
        'JSON.stringify([{ ...sessionStorage }, { ...localStorage }, document.cookie])',
      );
      expect(stored).not.toMatch(/lk[or]_/);
    });

    await test.step('the token endpoint and /graphql allowed exactly the app origin', async () => {
      for (const url of [tokenUrl, `${urls.apiUrl}/graphql`]) {
        const request = requests.find((r) => r.method() === 'POST' && r.url() === url)!;
        const headers = (await request.response())!.headers();
        expect(headers['access-control-allow-origin'], url).toBe(spa.url);
        expect(headers['access-control-allow-credentials'], url).toBeUndefined();
        expect(headers.vary?.toLowerCase(), url).toContain('origin');
      }
    });

    await test.step('PC-08 the same app on an origin no client registered is refused by CORS', async () => {
      const elsewhere = await startBrowserApp(urls, clientId, unregisteredPort);
      apps.push(elsewhere);
      const other = await context.newPage();
      const logged: string[] = [];
      other.on('console', (message) => logged.push(message.text()));
      await other.goto(elsewhere.url);
      await expect(other.getByText("Could not read the authorization server's metadata")).toBeVisible();
      const outcome = await other.evaluate(
        async ({ url, id }) => {
          const body = new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: id });
          return fetch(url, { method: 'POST', body }).then(
            () => 'answered',
            (err: Error) => err.name,
          );
        },
        { url: tokenUrl, id: clientId },
      );
      expect(outcome).toBe('TypeError');
      // Why, in Chromium's words: the answer carried no Access-Control-Allow-Origin for this origin.
      await expect
        .poll(() => logged.find((line) => line.includes(`${tokenUrl}' from origin '${elsewhere.url}'`)))
        .toMatch(/blocked by CORS policy: No 'Access-Control-Allow-Origin' header/);
    });
  } finally {
    await context.close();
    for (const app of apps) await app.stop();
  }
});
