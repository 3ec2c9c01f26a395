import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { RunQuery } from '../../graphql/graphql.handler.ts';
import { principalOf } from '../auth-info.ts';

const inputShape = {
  query: z
    .string()
    .describe('A GraphQL query document, e.g. { profile { name } }. Mutations and subscriptions are refused.'),
  variables: z.record(z.string(), z.unknown()).optional().describe('Values of the variables the query declares.'),
  operationName: z.string().optional().describe('Which operation of the document to run, when it has several.'),
};

/**
 * RS-19: a read-only query against the API's schema as the caller, through `/graphql`'s own
 * document cache, validation rules and limits, and per-field scopes (RunQuery). The data comes
 * back as JSON text and as structured content; any GraphQL error (syntax, validation, a missing
 * scope, a mutation) makes the result a tool error carrying the messages, one a line.
 */
export function registerGraphqlTool(server: McpServer, run: RunQuery): void {
  server.registerTool(
    'graphql',
    {
      title: 'GraphQL query',
      description:
        "Runs a read-only GraphQL query against the Latchkey API as the signed-in user (the API's schema: type Query { profile: Profile! }, Profile { id name email }). Each field needs its scope: id and name need profile, email needs email.",
      inputSchema: inputShape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (input, extra): Promise<CallToolResult> => {
      const result = await run(input, { principal: principalOf(extra.authInfo) });
      if (result.errors !== undefined && result.errors.length > 0) {
        return { isError: true, content: [{ type: 'text', text: result.errors.map((e) => e.message).join('\n') }] };
      }
      const data = (result.data ?? {}) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: { data } };
    },
  );
}
