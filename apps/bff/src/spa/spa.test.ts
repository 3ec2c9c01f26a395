import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PortalBrowser,
  startPortalSystem,
  startSecondBff,
  type PortalSystem,
  type SecondBff,
} from '#test/support/portal-system.ts';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-Abc123.js"></script></head><body><div id="root"></div></body></html>';

/** Large enough to be worth compressing, as the build's chunks are. */
const PRECOMPRESSED: Record<string, Buffer> = {
  'tokens-Def456.js': Buffer.from(`export const rows = [${'"a row of the tokens page", '.repeat(400)}];\n`),
  'index-Ghi789.css': Buffer.from(`${'.row { display: grid; gap: 0.5rem; }\n'.repeat(300)}`),
};

/** The build's manifest, which the build compresses like any other text file. */
const MANIFEST = Buffer.from(JSON.stringify({ 'index.html': { file: 'assets/index-Abc123.js', isEntry: true } }));

/** One request as curl would make it: raw bytes, no decoding, no default Accept-Encoding. */
function rawGet(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const url = new URL(system.portalUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let system: PortalSystem;
let dist: string;
let browser: PortalBrowser;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'latchkey-portal-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-Abc123.js'), 'console.log("portal");');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // What the portal's build writes (vite-plugin-compression2): each file, and its .br and .gz.
  for (const [name, content] of Object.entries(PRECOMPRESSED)) {
    writeFileSync(join(dist, 'assets', name), content);
    writeFileSync(join(dist, 'assets', `${name}.br`), brotliCompressSync(content));
    writeFileSync(join(dist, 'assets', `${name}.gz`), gzipSync(content));
  }
  mkdirSync(join(dist, '.vite'));
  writeFileSync(join(dist, '.vite', 'manifest.json'), MANIFEST);
  writeFileSync(join(dist, '.vite', 'manifest.json.br'), brotliCompressSync(MANIFEST));
  writeFileSync(join(dist, '.vite', 'manifest.json.gz'), gzipSync(MANIFEST));
  system = await startPortalSystem({}, { portalDist: dist });
  browser = new PortalBrowser(system);
});
afterAll(async () => {
  await system?.close();
  rmSync(dist, { recursive: true, force: true });
});

/** Every source of every directive is a keyword, this origin, data: or blob: (RF-01: no third party). */
function cspDirectives(header: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name, values);
  }
  return directives;
}

describe('the built SPA', () => {
  it('GET / and any deep link that accepts HTML: index.html, no-store', async () => {
    for (const path of ['/', '/clients', '/tokens?page=2', '/explorer', '/no/such/page']) {
      const answer = await browser.navigate(path);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(INDEX);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('the security headers: CSP for the SPA and GraphiQL, no framing, no referrer, nothing third-party', async () => {
    const answer = await browser.navigate('/explorer');
    const csp = cspDirectives(answer.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    for (const values of csp.values()) {
      for (const value of values) expect(value).toMatch(/^(?:'[a-z-]+'|data:|blob:)$/);
    }
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(answer.headers.get('strict-transport-security')).toBeNull(); // http here; see https.test.ts
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('x-powered-by')).toBeNull();
  });

  it('hashed assets are cached for a year and immutable; other files revalidate', async () => {
    const script = await browser.request('/assets/index-Abc123.js', { headers: { accept: '*/*' } });
    expect(script.status).toBe(200);
    expect(script.text).toBe('console.log("portal");');
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await browser.request('/favicon.svg', { headers: { accept: 'image/*' } });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('a missing asset is a 404, never index.html', async () => {
    const answer = await browser.request('/assets/index-Missing.js', { headers: { accept: '*/*' } });
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('<div id="root">');
  });

  it('a POST outside /bff: 404 JSON', async () => {
    const answer = await browser.request('/clients', { json: {} });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: 'not_found' });
  });

  it.each(['/../package.json', '/assets/../../package.json', '/..%2F..%2Fpackage.json', '/%2e%2e/%2e%2e/package.json'])(
    'a path climbing out of dist (%s) is a 404',
    async (path) => {
      const url = new URL(system.portalUrl);
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path, headers: { accept: '*/*' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(404);
    },
  );
});

describe('issue 20: precompressed assets, and the app for any client', () => {
  for (const [name, content] of Object.entries(PRECOMPRESSED)) {
    const type = name.endsWith('.js') ? /^text\/javascript|^application\/javascript/ : /^text\/css/;

    it(`PF-01 ${name}: brotli when accepted (preferred over gzip), gzip when only it is, the same bytes once decoded`, async () => {
      for (const [acceptEncoding, encoding, decode] of [
        ['br', 'br', brotliDecompressSync],
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['gzip;q=1.0, br;q=0.9', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
        ['gzip, deflate', 'gzip', gunzipSync],
      ] as const) {
        const answer = await rawGet(`/assets/${name}`, { accept: '*/*', 'accept-encoding': acceptEncoding });
        expect(answer.status, acceptEncoding).toBe(200);
        expect(answer.headers['content-encoding'], acceptEncoding).toBe(encoding);
        expect(answer.headers['vary']).toMatch(/Accept-Encoding/i);
        expect(answer.headers['content-type']).toMatch(type);
        expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
        expect(answer.body.length).toBeLessThan(content.length / 4);
        expect(decode(answer.body).equals(content), acceptEncoding).toBe(true);
      }
    });

    it(`PF-01 ${name}: identity when no encoding is accepted, still with Vary`, async () => {
      const cases: Record<string, string>[] = [
        {},
        { 'accept-encoding': 'identity' },
        { 'accept-encoding': 'br;q=0, gzip;q=0' },
      ];
      for (const headers of cases) {
        const answer = await rawGet(`/assets/${name}`, { accept: '*/*', ...headers });
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
        expect(answer.headers['vary']).toMatch(/Accept-Encoding/i);
        expect(answer.headers['content-type']).toMatch(type);
        expect(answer.body.equals(content)).toBe(true);
      }
    });
  }

  it('PF-02 Accept: */* (curl, fetch) on / and on a page gets the app’s HTML, no-store', async () => {
    for (const path of ['/', '/clients', '/tokens']) {
      for (const headers of [{ accept: '*/*' }, {}] as Record<string, string>[]) {
        const answer = await rawGet(path, headers);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(200);
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(answer.body.toString()).toBe(INDEX);
      }
    }
  });

  it('PF-05 a page’s HTML names what to fetch with it (Link: the session and the page’s data); other paths none', async () => {
    const tokens = await rawGet('/tokens', { accept: 'text/html' });
    expect(tokens.headers['link']).toContain('</bff/session>; rel=preload; as=fetch; crossorigin');
    expect(tokens.headers['link']).toContain('</bff/api/tokens>; rel=preload; as=fetch; crossorigin');
    expect((await rawGet('/', { accept: 'text/html' })).headers['link']).toBeUndefined();
  });

  it('PF-02 a missing file is still a 404 for */*: under /assets/, or a name with an extension', async () => {
    for (const path of ['/assets/missing.js', '/assets/missing', '/package.json', '/robots.txt']) {
      const answer = await rawGet(path, { accept: '*/*', 'accept-encoding': 'br, gzip' });
      expect(answer.status, path).toBe(404);
      expect(answer.body.toString()).not.toContain('<div id="root">');
    }
  });

  it('HD-11 an answer that is not the precompressed file (POST to an asset, the hidden manifest) has no Content-Encoding and a plain body', async () => {
    const asset = '/assets/tokens-Def456.js';
    const plain: [method: string, path: string, accept: string, status: number, type: RegExp][] = [
      ['POST', asset, '*/*', 404, /^application\/json/],
      ['PUT', asset, '*/*', 404, /^application\/json/],
      ['DELETE', asset, '*/*', 404, /^application\/json/],
      ['POST', '/.vite/manifest.json', '*/*', 404, /^application\/json/],
      ['GET', '/.vite/manifest.json', '*/*', 404, /^application\/json/],
      ['GET', '/.vite/manifest.json', 'application/json', 404, /^application\/json/],
      // A page that accepts HTML gets the app's page, as any other path would, never the manifest.
      ['GET', '/.vite/manifest.json', 'text/html', 200, /^text\/html/],
    ];
    for (const acceptEncoding of ['br, gzip', 'gzip']) {
      for (const [method, path, accept, status, type] of plain) {
        const what = `${method} ${path} (${accept}; ${acceptEncoding})`;
        const answer = await rawGet(path, { accept, 'accept-encoding': acceptEncoding }, method);
        expect(answer.status, what).toBe(status);
        expect(answer.headers['content-encoding'], what).toBeUndefined();
        expect(answer.headers['content-type'], what).toMatch(type);
        expect(Number(answer.headers['content-length']), what).toBe(answer.body.length);
        const text = answer.body.toString('utf8');
        if (status === 200) expect(text, what).toBe(INDEX);
        else expect(JSON.parse(text), what).toMatchObject({ error: 'not_found' });
      }
      // The file itself is still served precompressed.
      const real = await rawGet(asset, { accept: '*/*', 'accept-encoding': acceptEncoding });
      expect(real.status).toBe(200);
      expect(real.headers['content-encoding']).toBe(acceptEncoding === 'gzip' ? 'gzip' : 'br');
      const decode = acceptEncoding === 'gzip' ? gunzipSync : brotliDecompressSync;
      expect(decode(real.body).equals(PRECOMPRESSED['tokens-Def456.js']!)).toBe(true);
    }
  });

  it('a path that does not decode is a 404, not a plain-text 400', async () => {
    const answer = await rawGet('/assets/%E0%A4%A.js', { accept: '*/*' });
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('the SPA not built yet', () => {
  let bff: SecondBff;
  beforeAll(async () => {
    bff = await startSecondBff(system, { portalDist: join(dist, 'missing') });
  });
  afterAll(() => bff?.close());

  it('GET / answers a small 503 page saying the portal is not built, and the BFF endpoints still work', async () => {
    const answer = await browser.navigate(`${bff.url}/`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.text).toContain('The portal is not built yet');
    expect((await browser.request(`${bff.url}/bff/session`)).status).toBe(401);
  });
});
