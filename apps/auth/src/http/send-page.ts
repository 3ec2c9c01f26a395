import type { Request, Response } from 'express';
import type { SafeHtml } from './html.ts';
import { saveSession } from '@latchkey/sessions';

export function sendPage(res: Response, status: number, page: SafeHtml): void {
  res.status(status).type('html').send(page.value);
}

/**
 * For pages whose forms depend on the session (CSRF token, pending request): the session is
 * stored before the page is sent, or the request fails with 503. A visitor's session holds
 * nothing (its forms are bound to the visitor cookie) and is not stored at all (HD-06).
 */
export async function sendSessionPage(req: Request, res: Response, status: number, page: SafeHtml): Promise<void> {
  // express-session's data are the session's own enumerable fields besides `cookie`.
  if (Object.keys(req.session).some((key) => key !== 'cookie')) await saveSession(req);
  sendPage(res, status, page);
}
