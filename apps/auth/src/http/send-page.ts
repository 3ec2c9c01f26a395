import type { Request, Response } from 'express';
import type { SafeHtml } from './html.ts';
import { saveSession } from './session.ts';

export function sendPage(res: Response, status: number, page: SafeHtml): void {
  res.status(status).type('html').send(page.value);
}

/**
 * For pages whose forms depend on the session (CSRF token, pending request): the session is
 * stored before the page is sent, or the request fails with 503.
 */
export async function sendSessionPage(req: Request, res: Response, status: number, page: SafeHtml): Promise<void> {
  await saveSession(req);
  sendPage(res, status, page);
}
