import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '@latchkey/config';
import { TOKEN_EXPIRES_AT_HEADER } from '@latchkey/contracts';
import type { Clock, LastUsedRecorder, Principal } from '@latchkey/core';
import { clientAddressReader, setRequestSubject } from '@latchkey/http';

export interface TokenUseDeps {
  config: Pick<Config, 'trustProxy'>;
  clock: Clock;
  recorder: LastUsedRecorder;
}

/**
 * What the API does with a token it accepted, at `/graphql` and `/mcp` alike, before answering:
 * TR-08, the answer carries the token's expiry in Latchkey-Token-Expires-At (set now, so every
 * answer from here on has it, errors included); TR-06, TR-07, the use (when, the client's
 * address under TRUST_PROXY, its User-Agent) is kept in memory for the next batched write;
 * OB-19, the access line names the user and the token (ids, never the token).
 */
export function tokenUse(
  deps: TokenUseDeps,
): (req: IncomingMessage, res: ServerResponse, principal: Principal) => void {
  const clientAddress = clientAddressReader(deps.config.trustProxy);
  return (req, res, principal) => {
    res.setHeader(TOKEN_EXPIRES_AT_HEADER, new Date(principal.expiresAt).toISOString());
    deps.recorder.record(principal.tokenId, deps.clock.now(), clientAddress(req), req.headers['user-agent'] ?? null);
    setRequestSubject(req, principal);
  };
}
