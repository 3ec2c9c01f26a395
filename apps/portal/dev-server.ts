import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';

export interface PortalDevServerOptions {
  /** The portal's public URL (PORTAL_URL): Vite answers requests addressed to its host name. */
  publicUrl: string;
  /** The interface and port to listen on (HOST, PORTAL_PORT). */
  host: string;
  port: number;
  /** The BFF behind it, for `/bff/*` (sign-in, session, account proxy, GraphQL). */
  bffUrl: string;
}

const portalDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * The SPA with hot reload (`npm run dev`, scripts/dev.ts). Vite takes the portal's public
 * address, so the browser sees one origin as in production: the BFF's cookies, its Origin
 * check and its OAuth redirect URI (`<PORTAL_URL>/bff/callback`) all work unchanged, and
 * `/bff` is passed through to the BFF with the browser's own Host and Origin.
 */
export async function startPortalDevServer(options: PortalDevServerOptions): Promise<ViteDevServer> {
  const server = await createServer({
    root: portalDir,
    configFile: fileURLToPath(new URL('vite.config.ts', import.meta.url)),
    server: {
      host: options.host,
      port: options.port,
      strictPort: true,
      allowedHosts: [new URL(options.publicUrl).hostname],
      proxy: { '/bff': { target: options.bffUrl, changeOrigin: false } },
    },
  });
  await server.listen();
  return server;
}
