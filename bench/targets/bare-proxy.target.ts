// The least any reverse proxy in front of the API can cost: node:http (same socket settings
// as the real servers) piping each request to API_URL and the answer back, over keep-alive
// connections, with no session, no header filtering and no time limit. bench/portal.ts measures
// the portal's BFF against it, so the portal's own cost shows apart from the cost of a hop.
import { Agent, request } from 'node:http';
import { serve } from '@latchkey/process';
import { loadBenchConfig } from '../bench-config.ts';
import { announce } from './target-ready.ts';

const upstream = new URL(loadBenchConfig().api.url);
// As many sockets as the BFF's agent allows (apps/bff/src/proxy/upstream.ts), so neither waits on a pool.
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const running = await serve(
  (req, res) => {
    const forward = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    req.pipe(forward);
  },
  0,
  '127.0.0.1',
);
announce(running.port);
