import { AUDIT_USAGE } from './audit.command.ts';
import { CLIENT_USAGE } from './client.command.ts';
import { GRANT_USAGE } from './grant.command.ts';
import { KEYS_USAGE } from './keys.command.ts';
import { PURGE_USAGE } from './purge.command.ts';
import { REGISTRATION_USAGE } from './registration.command.ts';
import { RESOURCE_USAGE } from './resource.command.ts';
import { TOKEN_USAGE } from './token.command.ts';
import { USER_USAGE } from './user.command.ts';

/** Plain text for people; every other command prints one JSON document (`audit export`: JSON lines). */
export function helpText(): string {
  const lines = [
    'Latchkey admin CLI: manages users, OAuth clients, personal access tokens, authorized applications, ID token signing keys, resource servers and the security log in the configured',
    'database (DATA_DIR, default ./data). Prints JSON on stdout; exits 2 on a usage error and 1 when',
    'the operation fails (not found, conflict, invalid value), with a one-line message on stderr.',
    '',
    'Usage: npm run --silent cli -- <command>',
    '',
    'Commands:',
    `  ${USER_USAGE.create}`,
    `  ${USER_USAGE.list}`,
    `  ${USER_USAGE.delete}`,
    `  ${CLIENT_USAGE.create}    prints client_id and client_secret (shown once); --public: no secret, PKCE required; --device: may use the device flow`,
    `  ${CLIENT_USAGE.update}    --redirect-uri replaces the list; '' clears a detail`,
    `  ${CLIENT_USAGE.list}`,
    `  ${CLIENT_USAGE.revoke}`,
    `  ${CLIENT_USAGE.secretCreate}    prints the new client_secret (shown once); the old one works until deleted or --expires-in`,
    `  ${CLIENT_USAGE.secretList}    each secret's id, last4, created, expires and last used`,
    `  ${CLIENT_USAGE.secretDelete}    the next request with it gets invalid_client; the last one cannot be deleted`,
    `  ${CLIENT_USAGE.block}    refuses client ID metadata documents from that host, and revokes its clients`,
    `  ${CLIENT_USAGE.unblock}    accepts that host's documents again (its revoked clients stay revoked)`,
    `  ${CLIENT_USAGE.blocked}    the blocked hosts`,
    `  ${REGISTRATION_USAGE.tokenCreate}    prints an initial access token for /oauth/register (shown once)`,
    `  ${REGISTRATION_USAGE.tokenList}`,
    `  ${REGISTRATION_USAGE.tokenRevoke}    registrations with it are refused from now on`,
    `  ${TOKEN_USAGE.create}    prints token (shown once); default lifetime one year`,
    `  ${TOKEN_USAGE.list}`,
    `  ${TOKEN_USAGE.update}    any user's token; '' clears the description; value, scopes and expiry unchanged`,
    `  ${TOKEN_USAGE.roll}    prints the new token (shown once); the old one works until the overlap ends (default none)`,
    `  ${TOKEN_USAGE.revoke}`,
    `  ${GRANT_USAGE.list}    the applications the user authorized, one entry each`,
    `  ${GRANT_USAGE.revoke}    every grant and token of that application for the user; consent asked again`,
    `  ${KEYS_USAGE.list}    the ID token signing keys: kid, alg, status (next, signing, retired) and times`,
    `  ${KEYS_USAGE.rotate}    publishes new keys now; they sign after the delay (default 1h; 0 for an emergency)`,
    `  ${RESOURCE_USAGE.create}    registers an API clients may name in resource; default scopes profile email`,
    `  ${RESOURCE_USAGE.list}    id (its tokens' audience), uri, name, scopes, status and times`,
    `  ${RESOURCE_USAGE.revoke}    its URI is refused from now on, and every token issued for it`,
    `  ${AUDIT_USAGE.list}    the security log as a JSON array, newest first (default 100 events; everyone's unless --owner); --since: 2026-12-01 or 2026-12-01T09:30:00Z; --type: an event type, e.g. token.revoked`,
    `  ${AUDIT_USAGE.export}    every event as JSON lines (one object per line), oldest first`,
    `  ${PURGE_USAGE}    deletes what is past RETENTION_DAYS / AUDIT_RETENTION_DAYS and prints the counts per kind; --dry-run only counts`,
    '  migrate    applies pending migrations (every command and server does too); prints the ones applied',
    '  help',
  ];
  return `${lines.join('\n')}\n`;
}
