/**
 * The query keys of the portal's server data, in one place: a feature whose action changes
 * another feature's data (revoking an application revokes its tokens) invalidates that key from
 * here instead of importing the other feature. A key starts with its resource; an entry's key
 * extends its list's, so invalidating the list refetches the entry too.
 */
export const queryKeys = {
  session: ['session'] as const,
  clients: ['clients'] as const,
  client: (id: string) => ['clients', id] as const,
  clientSecrets: (id: string) => ['clients', id, 'secrets'] as const,
  tokens: ['tokens'] as const,
  applications: ['applications'] as const,
  /** AU-08: the security log, one entry per filter ('all' or an event type). */
  securityLog: (type: string | undefined) => ['security-log', type ?? 'all'] as const,
};
