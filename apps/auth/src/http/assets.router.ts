import { Router } from 'express';
import { FAVICON_PATH, STYLESHEET_PATH } from './views/layout.view.ts';
import { FAVICON_SVG, STYLESHEET } from './views/stylesheet.ts';

/** The stylesheet and icon, same-origin so the pages' CSP names no other origin (RF-01). */
export function assetsRouter(): Router {
  const router = Router();
  router.get(STYLESHEET_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.removeHeader('Pragma');
    res.type('text/css').send(STYLESHEET);
  });
  router.get(FAVICON_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.removeHeader('Pragma');
    res.type('image/svg+xml').send(FAVICON_SVG);
  });
  return router;
}
