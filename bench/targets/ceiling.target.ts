// The ceiling: bare node:http (same socket settings as the real servers) answering a fixed
// JSON body of the same shape as the API's.
import { serve } from '@latchkey/process';
import { announce } from './target-ready.ts';

const body = JSON.stringify({ data: { profile: { name: 'Ada Lovelace' } } });
const length = String(Buffer.byteLength(body));
const running = await serve(
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
    res.end(body);
  },
  0,
  '127.0.0.1',
);
announce(running.port);
