// Journey: rolling the example app's client secret (examples/third-party-app) without downtime:
// a second secret is generated in the portal (SR-01), the app restarts with it, the old one is
// deleted (SR-04), and no sign-in fails along the way; the deleted secret is then refused.
import { createAccountFromSignIn, newAccount, signUpThroughPortal } from './support/accounts.ts';
import { deleteSecret, expectSecrets, generateSecret, secretRows } from './support/client-secrets.ts';
import { startExampleAppFor } from './support/example-app.ts';
import { expect, test } from './support/fixtures.ts';
import { closeDialog, createClient, openClient } from './support/portal.ts';
import { reservedPort } from './support/system-env.ts';

const last4 = (secret: string) => secret.slice(-4);

test('SR-01 SR-04 rotating the example app’s secret, restarting it with the new one and deleting the old one never fails a sign-in', async ({
  page,
  newContext,
  leaks,
  urls,
}) => {
  test.setTimeout(120_000);
  const user = newAccount('Uma User');
  const clientName = 'Weather Widget';
  await signUpThroughPortal(page, newAccount('Olive Owner'));
  const port = await reservedPort();
  const client = await createClient(page, clientName, `http://localhost:${port}/callback`);
  await closeDialog(page);
  const oldSecret = client.clientSecret;

  let app = await startExampleAppFor(urls, client, port);
  const restartWith = async (clientSecret: string) => {
    await app.stop();
    app = await startExampleAppFor(urls, { clientId: client.clientId, clientSecret }, port);
  };
  try {
    const browser = await (await newContext()).newPage();
    const signedIn = () => expect(browser.getByText(`Signed in as ${user.name}`)).toBeVisible();
    /** A sign-in through the app that goes straight through (approved before): a code redeemed with its secret. */
    const signIn = async () => {
      await browser.goto(`${app.url}/login`);
      await signedIn();
    };

    await test.step('the user signs in through the app, which runs with its first secret', async () => {
      await browser.goto(app.url);
      await browser.getByRole('link', { name: 'Sign in with Latchkey' }).click();
      await createAccountFromSignIn(browser, user);
      await browser.getByRole('button', { name: 'Allow' }).click();
      await signedIn();
    });

    let newSecret = '';
    await test.step('SR-01 Generate a new secret on the client page: shown once; the app, still on the old one, signs in', async () => {
      await openClient(page, clientName);
      await expectSecrets(page, [last4(oldSecret)]);
      newSecret = await generateSecret(page);
      expect(newSecret).toMatch(/^lks_/);
      expect(newSecret).not.toBe(oldSecret);
      await expectSecrets(page, [last4(oldSecret), last4(newSecret)]);
      await signIn();
    });

    await test.step('restarted with the new secret, the app signs in', async () => {
      await restartWith(newSecret);
      await signIn();
    });

    await test.step('SR-04 the old secret deleted in the portal, the app signs in', async () => {
      await deleteSecret(page, last4(oldSecret));
      await expectSecrets(page, [last4(newSecret)]);
      // The last secret cannot be deleted: the one left offers no Delete.
      await expect(secretRows(page).getByRole('button', { name: 'Delete' })).toHaveCount(0);
      await signIn();
    });

    await test.step('SR-04 restarted with the deleted secret, the app gets invalid_client', async () => {
      await restartWith(oldSecret);
      await browser.goto(`${app.url}/login`);
      await expect(browser.getByText('Sign-in failed: invalid_client')).toBeVisible();
    });

    // TS-04 for the new secret: the browser saw it once, in the response that created it.
    const carrying = await leaks.responsesContaining(newSecret);
    expect(carrying.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`)).toEqual([
      `POST /bff/api/clients/${client.id}/secrets 201`,
    ]);
  } finally {
    await app.stop();
  }
});
