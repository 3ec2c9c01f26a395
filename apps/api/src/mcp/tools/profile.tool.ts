import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Principal } from '@latchkey/core';
import { profileOf } from '../../graphql/profile/profile.schema.ts';
import { principalOf } from '../auth-info.ts';

/** What the tool may show: each field only with its scope, as the GraphQL `Profile` type (SC-06). */
const profileShape = {
  id: z.string().optional().describe('The user id (scope profile).'),
  name: z.string().optional().describe("The user's name (scope profile)."),
  email: z.string().optional().describe("The user's email address (scope email)."),
};

type ProfileContent = { id?: string; name?: string; email?: string };

/**
 * RS-18: the token's user: id and name with `profile`, email with `email`, nothing else. The
 * token check already read them (profileOf), so the tool makes no query. A token with neither
 * scope gets a tool error naming them.
 */
export function profileToolResult(principal: Principal): CallToolResult {
  const profile = profileOf(principal);
  const content: ProfileContent = {};
  if (principal.scopes.includes('profile')) {
    content.id = profile.id;
    content.name = profile.name;
  }
  if (principal.scopes.includes('email')) content.email = profile.email;
  const lines = [
    ...(content.name !== undefined ? [`Name: ${content.name}`] : []),
    ...(content.email !== undefined ? [`Email: ${content.email}`] : []),
    ...(content.id !== undefined ? [`ID: ${content.id}`] : []),
  ];
  if (lines.length === 0) {
    return {
      isError: true,
      content: [{ type: 'text', text: 'The access token has neither the profile nor the email scope.' }],
    };
  }
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: content };
}

export function registerProfileTool(server: McpServer): void {
  server.registerTool(
    'profile',
    {
      title: 'Profile',
      description:
        'The signed-in user: id and name (scope profile) and email address (scope email), as far as the access token allows.',
      outputSchema: profileShape,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (extra) => profileToolResult(principalOf(extra.authInfo)),
  );
}
