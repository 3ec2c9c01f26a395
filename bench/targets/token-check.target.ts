// The floor under the API: bare node:http (same socket settings) with the API's own token check
// (credentials syntax, one indexed read, last use recorded in memory) and body reading, and a
// fixed-shape JSON answer: no GraphQL. What the API costs above it is its GraphQL layer.
import { LastUsedRecorder, systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase, serve } from '@latchkey/process';
import { authenticateBearer } from '../../apps/api/src/bearer/authenticate-bearer.ts';
import { parseBearerAuthorization } from '@latchkey/http';
import { BODY_LIMIT_BYTES } from '../../apps/api/src/graphql/graphql.router.ts';
import { bufferedBody, NOT_BUFFERED, readBody } from '../../apps/api/src/http/read-body.ts';
import { resourceMetadataUrl } from '../../apps/api/src/resource-metadata/resource-metadata.route.ts';
import { loadBenchConfig } from '../bench-config.ts';
import { announce } from './target-ready.ts';

const config = loadBenchConfig();
const db = await openDatabase(config, systemClock);
const recorder = new LastUsedRecorder(db);
const deps = { db, clock: systemClock, logger: createLogger({ level: 'silent' }) };
const endpoint = { metadataUrl: resourceMetadataUrl(config.api.url, '/graphql') };
const running = await serve(
  (req, res) => {
    void authenticateBearer(deps, parseBearerAuthorization(req), endpoint).then(async (outcome) => {
      if (!outcome.ok) {
        res.writeHead(outcome.rejection.status, outcome.rejection.headers).end();
        return;
      }
      recorder.record(outcome.principal.tokenId, systemClock.now());
      // Read (and drop) the body as the API does: left unread, Node would drain it as a stream.
      if (bufferedBody(req, BODY_LIMIT_BYTES) === NOT_BUFFERED) await readBody(req, BODY_LIMIT_BYTES);
      const body = JSON.stringify({ data: { profile: { name: outcome.principal.userName } } });
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  },
  0,
  '127.0.0.1',
);
announce(running.port);
