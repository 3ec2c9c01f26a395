import type { Request, Response } from 'express';
import { SCOPES } from '@latchkey/contracts';
import {
  decideDeviceAuthorization,
  findPendingDeviceAuthorization,
  findUserById,
  formatUserCode,
  normalizeUserCode,
  type PendingDeviceAuthorization,
} from '@latchkey/core';
import { saveSession } from '@latchkey/sessions';
import type { AuthDeps } from '../../deps.ts';
import { assertCsrfToken, assertFormCsrf, CSRF_FIELD, csrfTokenFor } from '../../http/csrf.ts';
import { CsrfRejected, PageError } from '../../http/page-error.ts';
import { sendSessionPage } from '../../http/send-page.ts';
import { originOf } from '../../http/request-origin.ts';
import { clientLabelOf, selfRegistrationOf } from '../../authorization/consent/self-registration.ts';
import { currentUser } from '../current-user.ts';
import { deviceDecisionForm, userCodeForm } from './device.schema.ts';
import {
  adoptVerification,
  findVerification,
  removeVerification,
  saveVerification,
  type DeviceVerification,
} from './device-verification.ts';
import { deviceCodePage } from './views/device-code.view.ts';
import { deviceConsentPage } from './views/device-consent.view.ts';
import { deviceDonePage } from './views/device-done.view.ts';

export const DEVICE_CONFIRM_PATH = '/device/confirm';
export const DEVICE_DECISION_PATH = '/device/decision';

/** DV-15: one answer for a code that is unknown, expired, already decided or malformed. */
const INVALID_CODE = 'That code is not valid or has expired.';
/** Shown for the owner of a client the service provisions itself. */
const SERVICE_OWNER = 'Latchkey';

function confirmPath(key: string): string {
  return `${DEVICE_CONFIRM_PATH}?${new URLSearchParams({ request: key }).toString()}`;
}

/** The code the page's field starts with: a well-formed code as the device shows it, else as given. */
function prefill(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  // DV-14: any case, with or without the hyphen or spaces.
  const code = normalizeUserCode(input);
  return code === undefined ? input.slice(0, 20) : formatUserCode(code);
}

async function renderCodePage(
  deps: AuthDeps,
  req: Request,
  res: Response,
  status: number,
  view: { userCode?: string | undefined; error?: string | undefined },
): Promise<void> {
  await sendSessionPage(req, res, status, deviceCodePage({ ...view, csrfToken: csrfTokenFor(deps, req, res) }));
}

function renderInvalidCode(deps: AuthDeps, req: Request, res: Response, typed?: string): Promise<void> {
  return renderCodePage(deps, req, res, 422, { userCode: prefill(typed), error: INVALID_CODE });
}

/** The request a verification names, still pending and the same one that was entered. */
async function stillPending(deps: AuthDeps, verification: DeviceVerification) {
  const pending = await findPendingDeviceAuthorization(deps.db, deps.clock, verification.userCode);
  return pending?.id === verification.deviceAuthorizationId ? pending : undefined;
}

async function ownerLabelOf(deps: AuthDeps, pending: PendingDeviceAuthorization): Promise<string> {
  const ownerId = pending.client.ownerId;
  const owner = ownerId === null ? undefined : await findUserById(deps.db, ownerId);
  return owner ? owner.name || owner.email : SERVICE_OWNER;
}

export function deviceHandlers(deps: AuthDeps) {
  return {
    /** GET /device: the code page; `user_code` (verification_uri_complete) only fills the field (DV-22). */
    async show(req: Request, res: Response): Promise<void> {
      await renderCodePage(deps, req, res, 200, { userCode: prefill(req.query.user_code) });
    },

    /**
     * POST /device: a code found pending is remembered (DV-17) and the browser goes on to the
     * consent page, through sign-in first when nobody is signed in (DV-19); any other code gets
     * the one message (DV-15) and counts towards the limit (DV-16).
     */
    async submit(req: Request, res: Response): Promise<void> {
      assertFormCsrf(deps, req);
      const form = userCodeForm.safeParse(req.body);
      if (!form.success) {
        await renderInvalidCode(deps, req, res);
        return;
      }
      const typed = form.data.user_code;
      const userCode = normalizeUserCode(typed);
      const pending =
        userCode === undefined ? undefined : await findPendingDeviceAuthorization(deps.db, deps.clock, userCode);
      if (userCode === undefined || !pending) {
        await renderInvalidCode(deps, req, res, typed);
        return;
      }
      const user = await currentUser(deps.db, req);
      const verification = saveVerification(deps, req, res, { deviceAuthorizationId: pending.id, userCode });
      if (!user) {
        // OR-01: a path on this server; the sealed key says nothing about the code.
        res.redirect(303, `/signin?${new URLSearchParams({ return_to: confirmPath(verification.key) }).toString()}`);
        return;
      }
      await saveSession(req);
      res.redirect(303, confirmPath(verification.key));
    },

    /** GET /device/confirm: the device's consent page (DV-18); it never decides anything itself. */
    async confirm(req: Request, res: Response): Promise<void> {
      const user = await currentUser(deps.db, req);
      if (!user) {
        res.redirect(303, `/signin?${new URLSearchParams({ return_to: req.originalUrl }).toString()}`);
        return;
      }
      const verification = adoptVerification(deps, req, req.query.request);
      const pending = verification && (await stillPending(deps, verification));
      if (!verification || !pending) {
        if (verification) removeVerification(req, verification.key);
        await renderInvalidCode(deps, req, res);
        return;
      }
      const client = pending.client;
      await sendSessionPage(
        req,
        res,
        200,
        deviceConsentPage({
          requestId: verification.key,
          csrfToken: verification.csrfToken,
          clientName: client.name,
          ownerLabel: await ownerLabelOf(deps, pending),
          selfRegistration: selfRegistrationOf(client),
          userCode: formatUserCode(verification.userCode),
          scopes: pending.scopes.map((scope) => SCOPES[scope].sentence),
          user,
        }),
      );
    },

    /**
     * POST /device/decision: the verification must be this session's and the CSRF token the one
     * minted for it, as the consent page's (CS-01). The decision is atomic (DV-21): a code that
     * someone else decided meanwhile, or that expired, gets the invalid-code page.
     */
    async decide(req: Request, res: Response): Promise<void> {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const verification = findVerification(deps, req, body.request);
      if (!verification) throw new CsrfRejected();
      assertCsrfToken(body[CSRF_FIELD], verification.csrfToken);
      const user = await currentUser(deps.db, req);
      if (!user) throw new CsrfRejected();
      const form = deviceDecisionForm.safeParse(body);
      if (!form.success)
        throw new PageError(400, 'Choose Approve or Deny', 'The form did not say whether you approve or deny.');

      // DV-20: a decision form is used once.
      removeVerification(req, verification.key);
      const pending = await stillPending(deps, verification);
      const approved = form.data.decision === 'approve';
      const decided =
        pending !== undefined &&
        (await decideDeviceAuthorization(
          deps.db,
          deps.clock,
          { id: pending.id, userId: user.id, approved, authTime: req.session.authenticatedAt },
          // AU-13: an approval is device.approved in the user's log, from this request.
          { kind: 'user', userId: user.id, origin: originOf(req) },
        ));
      if (!pending || !decided) {
        await renderInvalidCode(deps, req, res);
        return;
      }
      await sendSessionPage(req, res, 200, deviceDonePage({ approved, clientName: clientLabelOf(pending.client) }));
    },
  };
}
