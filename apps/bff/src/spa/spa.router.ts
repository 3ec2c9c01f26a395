import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Router, type Request, type RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { RETRY_AFTER_SECONDS } from '@latchkey/http';
import { sendNotice } from '../http/notice-page.ts';
import { pagePreloads } from './page-preloads.ts';

/** Vite names every file under assets/ by its content hash: it can be cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The headers express-static-gzip sets for the compressed copy it means to serve (HD-11). */
const ENCODING_HEADERS = ['Content-Encoding', 'Content-Type', 'Vary'] as const;

/**
 * Which requests get the app's page (index.html), as history-fallback servers decide it: a GET
 * or HEAD outside /assets/ that accepts HTML, or that accepts any type (curl's and fetch's
 * default Accept, or none at all) for a path whose last segment is not a file name. A missing
 * script or `/package.json` stays a 404 (PF-02).
 */
function wantsAppPage(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.path.startsWith('/assets/')) return false;
  const accept = req.headers.accept ?? '*/*';
  if (accept.includes('text/html')) return true;
  return accept.includes('*/*') && !(req.path.split('/').pop() ?? '').includes('.');
}

/**
 * The build's files, precompressed (issue 20): Vite writes `.br` and `.gz` beside each text
 * file (apps/portal/vite.config.ts) and express-static-gzip serves the one `Accept-Encoding`
 * asks for, brotli first, with `Vary: Accept-Encoding`; nothing is compressed per request (PF-01). It
 * lists the compressed files when the server starts, so a portal rebuilt under a running server
 * is served uncompressed until the restart. A path that does not decode is not a file here: it
 * goes on to the 404 (express-static-gzip would answer it a plain-text 400).
 */
function precompressedFiles(distDir: string, assets: string): RequestHandler {
  const serve = expressStaticGzip(distDir, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      redirect: false,
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.startsWith(assets) ? IMMUTABLE : 'no-cache');
      },
    },
  });
  return (req, res, next) => {
    try {
      decodeURIComponent(req.path);
    } catch {
      next();
      return;
    }
    // express-static-gzip sets Content-Encoding, Content-Type and Vary as soon as a compressed
    // copy of the path exists, before serve-static decides to serve it. When it does not (a
    // POST, a dotfile such as /.vite/manifest.json), the 404 or the app's page that follows
    // would carry `Content-Encoding: br` on a plain body, which browsers fail to decode (HD-11):
    // the headers are put back as they were.
    const before = ENCODING_HEADERS.map((name) => [name, res.getHeader(name)] as const);
    serve(req, res, (err?: unknown) => {
      if (!res.headersSent) {
        for (const [name, value] of before) {
          if (value === undefined) res.removeHeader(name);
          else res.setHeader(name, value);
        }
      }
      next(err);
    });
  };
}

/**
 * The built SPA (apps/portal/dist): hashed assets cached for a year, anything else
 * revalidated, and index.html (never cached) for every other page the browser navigates to,
 * so react-router can draw /clients, /tokens or /explorer on a reload. Until the SPA is
 * built, pages answer 503 with a note saying so.
 */
export function spaRouter(distDir: string): Router {
  const router = Router();
  const assets = join(distDir, 'assets') + sep;
  const indexFile = join(distDir, 'index.html');

  router.use(precompressedFiles(distDir, assets));
  const preloadsFor = pagePreloads(distDir);

  router.use((req, res, next) => {
    if (!wantsAppPage(req)) {
      next();
      return;
    }
    if (!existsSync(indexFile)) {
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendNotice(res, 503, {
        title: 'The portal is not built yet',
        detail: 'The developer portal’s pages have not been built. Run `npm start`, which builds them, then reload.',
      });
      return;
    }
    res.set('Cache-Control', 'no-store');
    // The page's module, its chunks and its data start downloading with the HTML (issue 20).
    const preloads = preloadsFor(req.path);
    if (preloads !== undefined) res.set('Link', preloads);
    res.sendFile(indexFile, { cacheControl: false });
  });
  return router;
}
