import { Badge } from '../../../components/badge.tsx';
import { LastUsed } from '../../../components/last-used.tsx';
import { RowActionButton } from '../../../components/row-action-button.tsx';
import { Time } from '../../../components/time.tsx';
import { REVOKE_ACTION } from '../../../components/use-focus-after-revoke.ts';
import type { AccessToken } from '../api/get-tokens.ts';
import { tokenExpiresSoon } from '../expiration/expires-soon.ts';

export type TokenAction = 'edit' | 'roll' | 'revoke';

const STATUS = {
  active: { label: 'Active', tone: 'success' },
  expired: { label: 'Expired', tone: 'neutral' },
  revoked: { label: 'Revoked', tone: 'neutral' },
} as const;

/**
 * One personal access token: its name with its description under it (TR-13), where it was last
 * used (TR-15), "Expires soon" by the TR-09 rule, and the actions its state allows. A rolled
 * token in its overlap (TR-12) says until when the old value works; it can be revoked, not
 * edited or rolled again. Each button names the token: "Revoke token laptop" (AX-02).
 */
export function TokenRow({
  token,
  now,
  onAction,
}: {
  token: AccessToken;
  /** When the list was fetched (ms). */
  now: number;
  onAction: (action: TokenAction, token: AccessToken) => void;
}) {
  const expiringSoon = tokenExpiresSoon(token, now);
  const active = token.status === 'active';
  const rolled = active && token.replaced_by !== null;
  const status = STATUS[token.status];
  const target = `token ${token.name}`;
  return (
    <tr data-row-key={token.id} data-muted={!active} data-highlight={expiringSoon}>
      <td data-label="Name">
        <div>
          <span className="cell-title">{token.name}</span>
          {token.description ? <span className="cell-description">{token.description}</span> : null}
          <span className="cell-subtitle">Personal access token</span>
        </div>
      </td>
      <td data-label="Token">
        <code>
          <span className="visually-hidden">ending in </span>
          <span aria-hidden="true">…</span>
          {token.last4}
        </code>
      </td>
      <td data-label="Scopes">
        {/* SC-07: what the token may do, by the names the API and the CLI use. */}
        {token.scopes.join(', ')}
      </td>
      <td data-label="Created">
        <Time value={token.created_at} />
      </td>
      <td data-label="Expires">
        <span className="cell-with-badge">
          <Time value={token.expires_at} />
          {expiringSoon ? <Badge tone="warning">Expires soon</Badge> : null}
        </span>
      </td>
      <td data-label="Last used">
        <LastUsed at={token.last_used_at} ip={token.last_used_ip} userAgent={token.last_used_user_agent} now={now} />
      </td>
      <td data-label="Status">
        {rolled ? (
          <span className="cell-with-badge">
            <Badge tone="warning">Rolled</Badge>
            <span>
              old value works until <Time value={token.expires_at} withTime />
            </span>
          </span>
        ) : (
          <Badge tone={status.tone}>{status.label}</Badge>
        )}
      </td>
      <td data-label="" className="cell-actions">
        <div className="cell-buttons">
          {active && !rolled ? (
            <>
              <RowActionButton action="Edit" target={target} onClick={() => onAction('edit', token)} />
              <RowActionButton action="Roll" target={target} onClick={() => onAction('roll', token)} />
            </>
          ) : null}
          {active ? (
            <RowActionButton
              action="Revoke"
              target={target}
              variant="danger"
              data-row-action={REVOKE_ACTION}
              onClick={() => onAction('revoke', token)}
            />
          ) : null}
        </div>
      </td>
    </tr>
  );
}
