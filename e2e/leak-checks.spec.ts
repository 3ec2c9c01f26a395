// Journey 7 (TS-02, TS-04): no access or refresh token ever reaches the browser.
// Every test in this suite runs the same checks automatically (support/fixtures.ts); these two
// prove the checks see what they claim to and would catch a leak.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LeakRecorder } from './support/leak-recorder.ts';
import { newAccount, signUpThroughPortal } from './support/accounts.ts';
import { runStarterQuery } from './support/explorer.ts';
import { expect, test } from './support/fixtures.ts';
import { generateToken, closeDialog, openPage } from './support/portal.ts';

test('TS-02 the leak check flags a token in a body, a Set-Cookie header or browser storage', async ({ browser }) => {
  // A real server, so that Set-Cookie arrives the way Chromium reports it for the portal.
  const fake = (prefix: string) => `${prefix}_${'A1b2C3d4E5'.repeat(3)}abc123`;
  const probes: Record<string, (res: ServerResponse) => void> = {
    '/probe-body': (res) => res.end(`<p>${fake('lko')}</p>`),
    '/probe-header': (res) => res.setHeader('set-cookie', `probe=${fake('lkr')}; Path=/; HttpOnly`).end('<p>ok</p>'),
    '/probe-storage': (res) => res.end(`<script>sessionStorage.setItem('probe', '${fake('lkp')}')</script>`),
  };
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    probes[req.url ?? '']?.(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;

  const context = await browser.newContext();
  const recorder = new LeakRecorder();
  recorder.watch(context);
  const page = await context.newPage();
  for (const path of Object.keys(probes)) await page.goto(`${origin}${path}`);
  const problems = await recorder.problems();
  await context.close();
  server.close();

  const flagged = (kind: string) =>
    problems.filter((p) => p.startsWith(kind)).map((p) => new URL(p.split(' ')[2]!).pathname);
  expect(flagged('TS-02: GET').sort()).toEqual(['/probe-body', '/probe-header']);
  expect(flagged('TS-04: GET')).toEqual(['/probe-storage']);
  // sessionStorage (the PAT) and the cookie jar (the HttpOnly cookie) are read too.
  expect(problems.filter((p) => p.startsWith('browser storage')).join('\n')).toMatch(/lkp_[\s\S]*lkr_|lkr_[\s\S]*lkp_/);
});

test('TS-02 a whole portal session: every response the browser got was read and none carries a token', async ({
  page,
  leaks,
}) => {
  const account = newAccount('Hedy Lamarr');
  await signUpThroughPortal(page, account);
  await generateToken(page, 'Laptop');
  await closeDialog(page);
  await openPage(page, 'API clients');
  await runStarterQuery(page, account.name);

  await leaks.settle();
  const read = (path: string) =>
    leaks.responses.filter((r) => new URL(r.url).pathname === path && r.status < 300 && r.bodyRead);
  // The sign-in went through the BFF's callback (the code exchange: its redirect's headers) and
  // the session endpoint, the pages through the account and GraphQL proxies: bodies read.
  expect(leaks.responses.filter((r) => new URL(r.url).pathname === '/bff/callback')).not.toHaveLength(0);
  for (const path of ['/bff/session', '/bff/api/tokens', '/bff/api/clients', '/bff/graphql']) {
    expect(read(path), path).not.toHaveLength(0);
  }
  expect(await leaks.problems()).toEqual([]);
});
