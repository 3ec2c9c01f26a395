import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Badge } from '../../../components/badge.tsx';
import { BreakableText } from '../../../components/breakable-text.tsx';
import { Button } from '../../../components/button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { PageHeader, pageHeading } from '../../../components/page-header.tsx';
import { ErrorState, LoadingState } from '../../../components/query-states.tsx';
import { RegionErrorBoundary } from '../../../components/region-error-boundary.tsx';
import { RevokeDialog } from '../../../components/revoke-dialog.tsx';
import { Time } from '../../../components/time.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useClient } from '../api/get-client.ts';
import type { OAuthClient } from '../api/get-clients.ts';
import { useRevokeClient } from '../api/revoke-client.ts';
import { ClientSecrets } from './client-secrets.tsx';
import { EditClientDialog } from './edit-client-dialog.tsx';

/**
 * One client: everything it is registered with (IDs and URLs wrapping at / . - _ ? & =, AX-12),
 * Edit client and Revoke, and its secrets.
 */
export function ClientDetails({ id }: { id: string }) {
  const client = useClient(id);
  useDocumentTitle(client.data?.name ?? 'API client');
  if (client.data === undefined) {
    if (!client.isError) return <LoadingState label="Loading the client…" />;
    const missing = client.error instanceof ApiError && client.error.status === 404;
    return (
      <ErrorState
        title={missing ? 'No such client' : 'Could not load this client'}
        error={client.error}
        onRetry={missing ? undefined : () => void client.refetch()}
      />
    );
  }
  return <Details client={client.data} />;
}

/**
 * A link to a page the developer registered; plain text until the browser is asked to leave.
 * AX-12: it wraps at <wbr>s, and Chromium names a link with a space at each ("https:// example."),
 * so its label is the URL as written, which is also all its visible text (Label in Name holds).
 */
function External({ href }: { href: string | null }) {
  if (href === null) return <span className="muted">None</span>;
  return (
    <a href={href} aria-label={href} target="_blank" rel="noopener noreferrer">
      <BreakableText text={href} />
    </a>
  );
}

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="details__item">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Details({ client }: { client: OAuthClient }) {
  const [dialog, setDialog] = useState<'edit' | 'revoke' | null>(null);
  const secretsHeading = useId();
  const revoke = useRevokeClient();
  const revoked = client.status === 'revoked';
  // AX-03: the page stays, saying the client is revoked, and its Revoke button goes: focus moves
  // to the page's heading (the client's name) once the page shows it revoked, never to <body>.
  const focusHeadingOnceRevoked = useRef(false);
  useEffect(() => {
    if (!revoked || !focusHeadingOnceRevoked.current) return;
    focusHeadingOnceRevoked.current = false;
    pageHeading()?.focus();
  });
  return (
    <>
      <PageHeader
        title={client.name}
        description={
          revoked
            ? 'This client is revoked: it signs nobody in, and its tokens no longer work.'
            : 'Changes take effect the next time someone signs in to the application.'
        }
        actions={
          revoked ? null : (
            <>
              <Button variant="primary" onClick={() => setDialog('edit')}>
                Edit client
              </Button>
              <Button
                variant="danger"
                onClick={() => {
                  revoke.reset();
                  setDialog('revoke');
                }}
              >
                Revoke
                {/* AX-02: "Revoke client Weather Widget", the visible word first. */}
                <span className="visually-hidden">{` client ${client.name}`}</span>
              </Button>
            </>
          )
        }
      />
      <dl className="details">
        <Item term="Client ID">
          <span className="inline-copy">
            <code>
              <BreakableText text={client.client_id} />
            </code>
            <CopyButton value={client.client_id} label="Copy client ID" />
          </span>
        </Item>
        <Item term="Type">
          {client.public ? 'Public: no secret, PKCE required' : 'Confidential: authenticates with a client secret'}
        </Item>
        <Item term="Status">
          {revoked ? <Badge tone="neutral">Revoked</Badge> : <Badge tone="success">Active</Badge>}
        </Item>
        <Item term="Created">
          <Time value={client.created_at} />
        </Item>
        <Item term="Redirect URLs">
          <ul className="details__list">
            {client.redirect_uris.map((uri) => (
              <li key={uri}>
                <code>
                  <BreakableText text={uri} />
                </code>
              </li>
            ))}
          </ul>
        </Item>
        <Item term="Description">
          {client.description === null ? (
            <span className="muted">None</span>
          ) : (
            <span className="break">{client.description}</span>
          )}
        </Item>
        <Item term="Homepage">
          <External href={client.client_uri} />
        </Item>
        <Item term="Privacy policy">
          <External href={client.policy_uri} />
        </Item>
        <Item term="Terms of service">
          <External href={client.tos_uri} />
        </Item>
        <Item term="Device sign-in">
          {client.device_grant ? 'Allowed: devices without a browser may sign people in (device flow)' : 'Not allowed'}
        </Item>
        <Item term="ID token signing algorithm">
          <code>{client.id_token_signed_response_alg}</code>
        </Item>
        <Item term="Post-logout redirect URL">
          {client.post_logout_redirect_uri === null ? (
            <span className="muted">None</span>
          ) : (
            <code>
              <BreakableText text={client.post_logout_redirect_uri} />
            </code>
          )}
        </Item>
      </dl>
      <section className="page-section" aria-labelledby={secretsHeading}>
        <h2 id={secretsHeading} className="page-section__title focus-target" tabIndex={-1}>
          Client secrets
        </h2>
        {client.public ? (
          <p className="page-header__description">
            This is a public client: it has no secret. Your app sends its client ID alone and must sign people in with
            PKCE.
          </p>
        ) : (
          <RegionErrorBoundary title="Could not show this client’s secrets">
            <ClientSecrets client={client} headingId={secretsHeading} />
          </RegionErrorBoundary>
        )}
      </section>
      {dialog === 'edit' ? <EditClientDialog client={client} onClose={() => setDialog(null)} /> : null}
      {dialog === 'revoke' ? (
        <RevokeDialog
          title="Revoke this client?"
          id={client.id}
          revoke={revoke}
          revokedMessage={`Revoked the client “${client.name}”.`}
          onRevoked={() => (focusHeadingOnceRevoked.current = true)}
          onClose={() => setDialog(null)}
        >
          <p>
            <strong>{client.name}</strong> will no longer be able to sign anyone in, and every token it has issued stops
            working immediately, for every user.
          </p>
        </RevokeDialog>
      ) : null}
    </>
  );
}
