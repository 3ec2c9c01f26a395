import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagePreloads, PAGES } from './page-preloads.ts';

let dist: string;

/** A manifest of the shape Vite writes: the entry imports `shared`, and so do the pages. */
const MANIFEST = {
  'index.html': { file: 'assets/index-A.js', imports: ['_shared-B.js'], css: ['assets/index-A.css'] },
  '_shared-B.js': { file: 'assets/shared-B.js' },
  'src/app/routes/tokens.tsx': { file: 'assets/tokens-C.js', imports: ['_shared-B.js', '_dialog-D.js'] },
  '_dialog-D.js': { file: 'assets/dialog-D.js', css: ['assets/dialog-D.css'] },
};

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'latchkey-preloads-'));
  mkdirSync(join(dist, '.vite'));
  writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('issue 20: what a page preloads with its HTML', () => {
  it('PF-05 the page’s chunks not already in index.html, their stylesheets, the session and the page’s data', () => {
    const preloads = pagePreloads(dist);
    expect(preloads('/tokens')?.split(', ')).toEqual([
      '</assets/tokens-C.js>; rel=modulepreload',
      '</assets/dialog-D.js>; rel=modulepreload',
      '</assets/dialog-D.css>; rel=preload; as=style',
      '</bff/session>; rel=preload; as=fetch; crossorigin',
      '</bff/api/tokens>; rel=preload; as=fetch; crossorigin',
    ]);
    // A page the manifest does not list still gets its data; a client's page its own client.
    expect(preloads('/clients/lkc_abc123')).toBe(
      '</bff/session>; rel=preload; as=fetch; crossorigin, </bff/api/clients/lkc_abc123>; rel=preload; as=fetch; crossorigin',
    );
  });

  it('PF-05 nothing for a path that is no page, or an id that is not one', () => {
    const preloads = pagePreloads(dist);
    for (const path of ['/', '/signed-out', '/no/such/page', '/clients/a%2Fb', '/clients/<x>', '/tokens/extra']) {
      expect(preloads(path), path).toBeUndefined();
    }
  });

  it('PF-05 without a build there are no module preloads, only data', () => {
    expect(pagePreloads(join(dist, 'missing'))('/tokens')).toBe(
      '</bff/session>; rel=preload; as=fetch; crossorigin, </bff/api/tokens>; rel=preload; as=fetch; crossorigin',
    );
  });

  it('every page of the table names a route module that exists in the portal', () => {
    const portal = join(import.meta.dirname, '../../../portal');
    for (const page of PAGES) {
      for (const module of [page.module, page.alsoLoads?.module ?? page.module]) {
        expect(existsSync(join(portal, module)), module).toBe(true);
      }
    }
  });
});
