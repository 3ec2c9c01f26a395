// The token check every peer server runs in its own way (a context function, a hook), the same as
// the API's: the credentials' syntax, one indexed read, last use recorded in memory.
import type { IncomingMessage } from 'node:http';
import { authenticateAccessToken, LastUsedRecorder, systemClock, type Principal } from '@latchkey/core';
import { parseBearerAuthorization } from '@latchkey/http';
import { openDatabase } from '@latchkey/process';
import { loadBenchConfig } from '../bench-config.ts';

/** The token's principal, or the message of the 401 the peer answers. */
export type PeerTokenCheck = (req: IncomingMessage) => Promise<Principal | { refused: string }>;

export async function openPeerTokenCheck(): Promise<PeerTokenCheck> {
  const db = await openDatabase(loadBenchConfig(), systemClock);
  const recorder = new LastUsedRecorder(db);
  return async (req) => {
    const credentials = parseBearerAuthorization(req);
    if (credentials.kind !== 'token') return { refused: 'Authentication required' };
    try {
      const principal = await authenticateAccessToken(db, systemClock, credentials.token);
      recorder.record(principal.tokenId, systemClock.now());
      return principal;
    } catch {
      return { refused: 'The access token is invalid.' };
    }
  };
}
