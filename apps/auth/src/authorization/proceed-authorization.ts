import { domainToUnicode } from 'node:url';
import type { Request, Response } from 'express';
import { coversScopes, LOOPBACK_HOSTS, SCOPES, type Scope } from '@latchkey/contracts';
import { consentedScopes, findUserById, type Client } from '@latchkey/core';
import type { AuthDeps } from '../deps.ts';
import { csrfTokenFor } from '../http/csrf.ts';
import { allowFormActionTo } from '../http/security-headers.ts';
import { sendSessionPage } from '../http/send-page.ts';
import { consentPage } from './consent/views/consent.view.ts';
import { selfRegistrationOf } from './consent/self-registration.ts';
import { currentUser } from '../interaction/current-user.ts';
import { signInPage } from '../interaction/login/views/signin.view.ts';
import { removePendingAuthorization, type PendingAuthorization } from './pending-authorization.ts';
import { liveResourceServer } from './check-resource.ts';
import { issueCodeAndRedirect } from './issue-code.ts';
import { clientLabelOf } from './consent/self-registration.ts';

/**
 * The host the browser will be sent back to, as registered (ASCII; xn-- for an
 * internationalized domain) and, when that differs, in Unicode beside it (HD-04).
 */
function redirectHostOf(redirectUri: string): { redirectHost: string; redirectHostUnicode?: string } {
  const url = new URL(redirectUri);
  // PC-05: a native app's private-use scheme (com.example.app:/callback) has no host; it names the app.
  if (url.host === '') return { redirectHost: url.protocol.slice(0, -1) };
  const unicode = domainToUnicode(url.hostname);
  if (unicode === '' || unicode === url.hostname) return { redirectHost: url.host };
  return { redirectHost: url.host, redirectHostUnicode: url.port ? `${unicode}:${url.port}` : unicode };
}

/** What the consent page says about the application beyond its name (issue 19). */
function aboutClient(client: Client, redirectUri: string) {
  return {
    loopback: LOOPBACK_HOSTS.has(new URL(redirectUri).hostname),
    isPublic: client.public,
    description: client.description,
    homepage: client.clientUri === null ? null : { href: client.clientUri, host: new URL(client.clientUri).host },
    policyUri: client.policyUri,
    tosUri: client.tosUri,
  };
}

/**
 * SC-05: each requested scope with its sentence; after an earlier approval of this client, the
 * scopes it did not cover are marked new (on a first approval nothing is marked: all of it is new).
 */
function requestedScopes(requested: readonly Scope[], consented: readonly Scope[] | null) {
  return requested.map((name) => ({
    sentence: SCOPES[name].sentence,
    isNew: consented !== null && !consented.includes(name),
  }));
}

/**
 * Whether `userId` has approved the request's scopes for `client` already: a first-party client
 * always, or a remembered approval covering every scope asked for (SC-05) unless the request asks
 * for consent again (AZ-31). RS-11: a request for a resource server other than the Latchkey API
 * is never approved beforehand, whoever the client: remembered approvals are the API's, and the
 * user must see which server the application will reach. `consented` is what was remembered, for
 * the consent page (null: nothing, first-party, or another resource server's request).
 */
export async function priorApproval(
  deps: AuthDeps,
  client: Client,
  userId: string,
  request: Pick<PendingAuthorization, 'scopes' | 'resource'>,
  askAgain: boolean,
): Promise<{ approved: boolean; consented: Scope[] | null }> {
  if (request.resource !== undefined) return { approved: false, consented: null };
  if (client.firstParty) return { approved: true, consented: null };
  const consented = await consentedScopes(deps.db, userId, client.id);
  return { approved: !askAgain && consented !== null && coversScopes(consented, request.scopes), consented };
}

/** Shown for clients the service provisions itself (no owner). */
const SERVICE_OWNER = 'Latchkey';

/**
 * The next step of a verified, pending authorization request:
 * 1. not signed in, or prompt=login not yet satisfied → sign-in page (OR-04, AZ-20, AZ-30);
 * 2. first-party client, or a prior approval of every requested scope and no prompt=consent → code
 *    (D-9, AZ-32, SC-05), for the Latchkey API only (RS-11);
 * 3. otherwise → consent page (AZ-31), naming the resource server other than the API (RS-11).
 * Pages that may end in a redirect to the client widen `form-action` to its origin (CJ-04).
 */
export async function proceedWithAuthorization(
  deps: AuthDeps,
  req: Request,
  res: Response,
  pending: PendingAuthorization,
  client: Client,
  loginHint?: string,
): Promise<void> {
  const user = await currentUser(deps.db, req);
  allowFormActionTo(res, pending.redirectUri);
  if (!user || pending.loginRequired) {
    await sendSessionPage(
      req,
      res,
      200,
      signInPage({
        csrfToken: csrfTokenFor(deps, req, res),
        requestId: pending.id,
        clientName: clientLabelOf(client),
        // OI-19: login_hint pre-fills the email; a signed-in user confirming it's them sees theirs.
        email: user?.email ?? loginHint,
        reauthenticate: user !== undefined,
      }),
    );
    return;
  }
  const askAgain = pending.prompt?.includes('consent') ?? false;
  const { approved, consented } = await priorApproval(deps, client, user.id, pending, askAgain);
  if (approved) {
    removePendingAuthorization(req, pending.id);
    await issueCodeAndRedirect(deps, req, res, pending, client, user.id);
    return;
  }
  const owner = client.ownerId === null ? undefined : await findUserById(deps.db, client.ownerId);
  const server = await liveResourceServer(deps, pending.resource);
  await sendSessionPage(
    req,
    res,
    200,
    consentPage({
      requestId: pending.id,
      csrfToken: pending.csrfToken,
      clientName: client.name,
      ownerLabel: owner ? owner.name || owner.email : SERVICE_OWNER,
      user,
      scopes: requestedScopes(pending.scopes, consented),
      // RS-11: the resource server other than the API that the application will reach with the tokens.
      resourceServer: server && { name: server.name, host: new URL(server.uri).host },
      ...redirectHostOf(pending.redirectUri),
      ...aboutClient(client, pending.redirectUri),
      // CM-15, DR-18: a client nobody registered is introduced by where it comes from, as unverified.
      selfRegistration: selfRegistrationOf(client),
    }),
  );
}
