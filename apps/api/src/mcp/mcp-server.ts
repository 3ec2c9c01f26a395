import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RunQuery } from '../graphql/graphql.handler.ts';
import { registerGraphqlTool } from './tools/graphql.tool.ts';
import { registerProfileTool } from './tools/profile.tool.ts';

/** What the server calls itself in the MCP `initialize` answer (serverInfo). */
export const MCP_SERVER_INFO = { name: 'latchkey', version: '0.1.0' } as const;

/**
 * RS-16: one MCP server per request (stateless Streamable HTTP: nothing outlives the request),
 * offering the `profile` (RS-18) and `graphql` (RS-19) tools. Both answer from this API alone:
 * the caller's token is passed to no other server.
 */
export function buildMcpServer(run: RunQuery): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions:
      'Latchkey: read the signed-in user with the profile tool, or query the Latchkey API with the graphql tool.',
  });
  registerProfileTool(server);
  registerGraphqlTool(server, run);
  return server;
}
