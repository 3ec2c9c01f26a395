import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LastUsedRecorder } from '@latchkey/core';
import type { ApiDeps } from '../deps.ts';
import { sendJsonError } from '../http/json-response.ts';

export const MCP_PATH = '/mcp';

/** RS-16: the MCP endpoint, Streamable HTTP. (Being built: issue 31.) */
export function mcpRoute(
  _deps: ApiDeps & { recorder: LastUsedRecorder },
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (_req, res) => sendJsonError(res, 404, 'Not found', 'NOT_FOUND');
}
