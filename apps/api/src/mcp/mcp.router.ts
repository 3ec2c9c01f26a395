import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isAllowedCorsOrigin, type LastUsedRecorder } from '@latchkey/core';
import { tokenCheckCountersOf } from '@latchkey/observability';
import { parseBearerAuthorization } from '@latchkey/http';
import { authenticateBearer, type BearerRejection } from '../bearer/authenticate-bearer.ts';
import { challengesOf } from '../bearer/challenge.ts';
import { tokenUse } from '../bearer/token-use.ts';
import type { ApiDeps } from '../deps.ts';
import type { GraphqlHandler } from '../graphql/graphql.handler.ts';
import { BODY_LIMIT_BYTES } from '../graphql/graphql.router.ts';
import { SECURITY_HEADERS, sendJsonError } from '../http/json-response.ts';
import { bufferedBody, NOT_BUFFERED, readBody, TOO_LARGE } from '../http/read-body.ts';
import { resourceMetadataUrl } from '../resource-metadata/resource-metadata.route.ts';
import { toAuthInfo } from './auth-info.ts';
import { buildMcpServer } from './mcp-server.ts';

export const MCP_PATH = '/mcp';

export type McpRouteDeps = ApiDeps & {
  recorder: LastUsedRecorder;
  /** `/graphql`'s handler: the graphql tool shares its document cache and rules. */
  graphql: Pick<GraphqlHandler, 'run'>;
};

/**
 * RS-16: `/mcp`, the Model Context Protocol over Streamable HTTP with the official SDK's
 * transport, stateless (no session: a new server and transport per request) and answering JSON,
 * not SSE. In order: the browser origin (RS-17) → the method → credentials syntax (no I/O) →
 * declared body size → token check with the audience rule (RS-06; its challenges point at
 * `/mcp`'s metadata, RS-14) → body → the SDK. An outage in the token check is 503 (D-10), as
 * at `/graphql`; the app's CORS wrapper answers preflights before this runs. RS-20: the 401 alone
 * is enough for an agent given this URL to find the authorization server and sign in.
 */
export function mcpRoute(deps: McpRouteDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const run = deps.graphql.run;
  const resource = `${deps.config.api.url}${MCP_PATH}`;
  const challenges = challengesOf({ metadataUrl: resourceMetadataUrl(deps.config.api.url, MCP_PATH) });
  // OB-02: its token checks are counted with /graphql's.
  const bearer = { ...deps, tokenChecks: deps.observability && tokenCheckCountersOf(deps.observability.metrics) };
  const useToken = tokenUse(deps);

  return async (req, res) => {
    // RS-17 (MCP Streamable HTTP, "Security Warning"): a page on another site must not reach a
    // local or internal MCP server through the user's browser (DNS rebinding). A browser always
    // sends Origin; only an allowed browser app's (PC-07) may call. Agents and curl send none.
    const origin = req.headers.origin;
    if (origin !== undefined && !(await isAllowedCorsOrigin(deps.db, origin))) {
      return sendJsonError(res, 403, 'This origin may not call the MCP endpoint.', 'FORBIDDEN');
    }
    // Stateless: no SSE stream to open with GET, no session to end with DELETE.
    if (req.method !== 'POST') {
      return sendJsonError(res, 405, 'Method not allowed', 'METHOD_NOT_ALLOWED', { allow: 'POST' });
    }
    const credentials = parseBearerAuthorization(req);
    if (declaresTooLargeBody(req)) return sendTooLarge(res);

    const outcome = await authenticateBearer(bearer, credentials, challenges);
    if (!outcome.ok) return sendRejection(res, outcome.rejection);
    useToken(req, res, outcome.principal);

    const buffered = bufferedBody(req, BODY_LIMIT_BYTES);
    const read = buffered === NOT_BUFFERED ? await readBody(req, BODY_LIMIT_BYTES) : buffered;
    if (read === undefined) return; // the client went away
    if (read === TOO_LARGE) return sendTooLarge(res);

    // A principal means the header held a token (authenticateBearer refuses the other kinds).
    const token = credentials.kind === 'token' ? credentials.token : '';
    (req as IncomingMessage & { auth?: AuthInfo }).auth = toAuthInfo(token, outcome.principal, resource);
    const server = buildMcpServer(run);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const closed = (err: unknown) => deps.logger.warn({ err }, 'could not close an MCP server after its request');
    res.on('close', () => {
      transport.close().catch(closed);
      server.close().catch(closed);
    });
    await server.connect(transport);
    // The SDK writes the answer; these stay on it (json-response.ts: it names the token's user).
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    await transport.handleRequest(req, res, parseJson(read));
  };
}

/**
 * The body is already read (its limit is ours), so the SDK gets it parsed. Text that is not
 * JSON becomes `null`, which the SDK refuses as it refuses bad JSON: 400, JSON-RPC -32700.
 */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function declaresTooLargeBody(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > BODY_LIMIT_BYTES;
}

/** GQ-21's limit, as at `/graphql`; the rest of the body is not read. */
function sendTooLarge(res: ServerResponse): void {
  const message = `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`;
  sendJsonError(res, 413, message, 'PAYLOAD_TOO_LARGE', { connection: 'close' });
}

function sendRejection(res: ServerResponse, rejection: BearerRejection): void {
  sendJsonError(res, rejection.status, rejection.message, rejection.code, rejection.headers);
}
