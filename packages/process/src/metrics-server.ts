import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@latchkey/logging';
import type { Metrics } from '@latchkey/observability';
import { serve, type RunningServer } from './serve.ts';

export const METRICS_PATH = '/metrics';

/**
 * OB-08: the Prometheus scrape endpoint, on a listener of its own (METRICS_HOST, 127.0.0.1 by
 * default, and METRICS_PORT), never on a public server's port. GET /metrics answers the text
 * exposition format; anything else is a 404.
 */
export async function serveMetrics(
  metrics: Metrics,
  port: number,
  host: string,
  logger: Logger,
): Promise<RunningServer> {
  const { registry } = metrics;
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        logger.error({ err }, 'could not collect the metrics');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Could not collect the metrics\n');
      },
    );
  };
  const running = await serve(handler, port, host, { shutdownTimeoutMs: 1_000 });
  logger.info({ host, port: running.port }, 'metrics listening');
  return running;
}
