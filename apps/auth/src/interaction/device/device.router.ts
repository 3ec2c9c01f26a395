import { Router, type RequestHandler } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { formBody } from '../../http/form-body.ts';
import { formPageRouter } from '../form-page.router.ts';
import { DEVICE_CONFIRM_PATH, DEVICE_DECISION_PATH, deviceHandlers } from './device.handler.ts';
import { deviceCodeRateLimit } from './device-rate-limit.ts';

/** RFC 8628 §3.3: the verification URI the device shows (`verification_uri`). */
export const DEVICE_PATH = '/device';

/**
 * The verification page (DV-13..DV-22): the user enters the code shown on the device (or arrives
 * with it from `verification_uri_complete`), signs in if needed, and approves or denies on a page
 * that says a device is asking ("Only continue if you started this yourself", RFC 8628 §5.4).
 * 1. GET/POST /device: the code; wrong codes are limited per address before the session loads (DV-16).
 * 2. GET /device/confirm: the consent page, for the signed-in user.
 * 3. POST /device/decision: approve or deny, once.
 */
export function deviceRouter(deps: AuthDeps, session: RequestHandler): Router {
  const handlers = deviceHandlers(deps);
  const router = formPageRouter(
    DEVICE_PATH,
    session,
    handlers,
    deviceCodeRateLimit(deps.config.rateLimit.loginPerMinute, deps),
  );
  router.get(DEVICE_CONFIRM_PATH, session, handlers.confirm);
  router.post(DEVICE_DECISION_PATH, formBody, session, handlers.decide);
  return router;
}
