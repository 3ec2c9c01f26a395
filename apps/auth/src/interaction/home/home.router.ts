import { Router, type RequestHandler } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { csrfTokenFor } from '../../http/csrf.ts';
import { sendPage, sendSessionPage } from '../../http/send-page.ts';
import { currentUser } from '../current-user.ts';
import { homePage } from './views/home.view.ts';

/** GET /: who is signed in, with a sign-out button; or the way in. */
export function homeRouter(deps: AuthDeps, session: RequestHandler): Router {
  const router = Router();
  router.get('/', session, async (req, res) => {
    const user = await currentUser(deps.db, req);
    if (!user) {
      sendPage(res, 200, homePage({ user }));
      return;
    }
    await sendSessionPage(req, res, 200, homePage({ user, csrfToken: csrfTokenFor(deps, req, res) }));
  });
  return router;
}
