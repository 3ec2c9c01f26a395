import type { RequestHandler } from 'express';
import { sendPage } from './send-page.ts';
import { errorPage } from './views/error-page.view.ts';

/**
 * A browser endpoint's answer to a method it does not take: 405 with `Allow` and an error page
 * (the JSON endpoints answer in JSON: endpoints/oauth-json/method-not-allowed.ts).
 */
export function methodNotAllowedPage(allow: string, detail: string): RequestHandler {
  return (_req, res) => {
    res.setHeader('Allow', allow);
    sendPage(res, 405, errorPage({ title: 'Method not allowed', detail, badge: 'Error 405' }));
  };
}
