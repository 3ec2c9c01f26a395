// CM-21 with REDIS_URL (D-8): authorization requests naming a document URL are counted per address
// across every instance, so a flood spread over instances fetches no more than one instance allows.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pkcePair } from '#test/support/fixtures.ts';
import { startRedisAuth, type RedisAuth } from '#test/support/redis-auth.ts';
import { startRedisServer, type RedisServer } from '#test/support/redis.ts';
import { documentFor, startDocumentServer, type DocumentServer } from './metadata-document.fixture.ts';

const LIMIT = 3;
let redisServer: RedisServer;
let auth: RedisAuth;
let docs: DocumentServer;

beforeAll(async () => {
  redisServer = await startRedisServer();
  docs = await startDocumentServer();
  auth = await startRedisAuth({
    redisUrl: redisServer.url,
    env: { CIMD_ALLOW_LOOPBACK: 'true', RATE_LIMIT_METADATA_DOCUMENT_PER_MINUTE: String(LIMIT) },
  });
});
afterAll(async () => {
  await auth?.close();
  await docs?.close();
  await redisServer?.stop();
});

function authorizeAt(url: string, clientId: string) {
  const params = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: 'http://127.0.0.1:53127/callback',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  });
  return fetch(`${url}/oauth/authorize?${params.toString()}`, { redirect: 'manual', headers: { accept: 'text/html' } });
}

it('CM-21 requests spread over two instances share one allowance: the 4th, on either, is 429 and fetches nothing', async () => {
  const [a, b] = auth.urls as [string, string];
  const clientId = docs.url('/shared/client.json');
  docs.serveJson('/shared/client.json', documentFor(clientId), { 'cache-control': 'no-store' });
  for (const url of [a, b, a]) expect((await authorizeAt(url, clientId)).status).not.toBe(429);
  expect(docs.requests('/shared/client.json')).toBe(LIMIT);
  // Instance B has seen one request only: the shared count refuses it.
  const refused = await authorizeAt(b, clientId);
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(refused.headers.get('ratelimit-policy')).toContain('"metadata-document-address-shared"');
  expect(docs.requests('/shared/client.json')).toBe(LIMIT);
});
