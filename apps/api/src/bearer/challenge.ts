import { formatScope, type Scope } from '@latchkey/contracts';

/** An endpoint of the API that takes bearer tokens, by where its RFC 9728 metadata document is. */
export interface BearerEndpoint {
  readonly metadataUrl: string;
}

interface ChallengeAttributes {
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  description?: string;
  scope?: string;
}

/**
 * RS-14, RS-15: an RFC 6750 §3 challenge with RFC 9728 §5.1's `resource_metadata`, the URL of
 * the endpoint's protected-resource metadata: from it a client that holds no token, or a
 * refused one, finds the authorization server and the scopes to ask for (the MCP SDK's client
 * reads it first). `error` is there only when a token or header was presented (§3.1).
 */
export function bearerChallenge(endpoint: BearerEndpoint, attributes: ChallengeAttributes = {}): string {
  let challenge = 'Bearer realm="api"';
  if (attributes.error !== undefined) challenge += `, error="${attributes.error}"`;
  if (attributes.description !== undefined) challenge += `, error_description="${quotable(attributes.description)}"`;
  if (attributes.scope !== undefined) challenge += `, scope="${attributes.scope}"`;
  return `${challenge}, resource_metadata="${endpoint.metadataUrl}"`;
}

/**
 * RFC 6750 §3: `error_description` is printable ASCII without `"` or `\`. The descriptions are
 * the API's own sentences; one quotes `Bearer <token>`, which becomes single quotes.
 */
function quotable(description: string): string {
  return description.replaceAll('"', "'").replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, '');
}

/**
 * Descriptions come from a fixed set of sentences in code, so each endpoint's challenges are
 * built once and kept; the bound only guards against a description that ever varied per request.
 */
const MAX_KEPT = 64;

function kept(cache: Map<string, string>, key: string, build: () => string): string {
  let value = cache.get(key);
  if (value === undefined) {
    value = build();
    if (cache.size < MAX_KEPT) cache.set(key, value);
  }
  return value;
}

/** One endpoint's challenges, each built once (the 401s and 403s answer with a string already made). */
export class EndpointChallenges implements BearerEndpoint {
  readonly metadataUrl: string;
  /** RS-14 without credentials: no `error` (RFC 6750 §3.1). */
  readonly noCredentials: string;
  readonly #invalidToken = new Map<string, string>();
  readonly #invalidRequest = new Map<string, string>();
  readonly #insufficientScope = new Map<string, string>();

  constructor(endpoint: BearerEndpoint) {
    this.metadataUrl = endpoint.metadataUrl;
    this.noCredentials = bearerChallenge(endpoint);
  }

  /** RS-14: a token that is unknown, expired, revoked or for another audience (RS-06). */
  invalidToken(description: string): string {
    return kept(this.#invalidToken, description, () => bearerChallenge(this, { error: 'invalid_token', description }));
  }

  /** RS-14: an Authorization header that is not one `Bearer <token>` (400). */
  invalidRequest(description: string): string {
    return kept(this.#invalidRequest, description, () =>
      bearerChallenge(this, { error: 'invalid_request', description }),
    );
  }

  /** RS-15 (SC-06): the token lacks scopes; `scope` names them in registry order. */
  insufficientScope(missing: readonly Scope[]): string {
    const scope = formatScope(missing);
    return kept(this.#insufficientScope, scope, () => bearerChallenge(this, { error: 'insufficient_scope', scope }));
  }
}

const byMetadataUrl = new Map<string, EndpointChallenges>();

/** The challenges of `endpoint`, made on its first use; an EndpointChallenges is its own. */
export function challengesOf(endpoint: BearerEndpoint): EndpointChallenges {
  if (endpoint instanceof EndpointChallenges) return endpoint;
  let challenges = byMetadataUrl.get(endpoint.metadataUrl);
  if (challenges === undefined) {
    challenges = new EndpointChallenges(endpoint);
    byMetadataUrl.set(endpoint.metadataUrl, challenges);
  }
  return challenges;
}
