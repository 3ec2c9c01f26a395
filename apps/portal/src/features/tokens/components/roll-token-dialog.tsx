import { DEFAULT_ROLL_OVERLAP, ROLL_OVERLAPS, type RollOverlap } from '@latchkey/contracts';
import { useId, useState } from 'react';
import { CreateDialog, CreateForm } from '../../../components/create-dialog.tsx';
import { RevealedSecret } from '../../../components/revealed-secret.tsx';
import { useDialogDraft, useRestoredDraft, type RestoredDraft } from '../../../lib/dialog-draft.ts';
import { Time } from '../../../components/time.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import type { CreatedToken } from '../api/create-token.ts';
import type { AccessToken } from '../api/get-tokens.ts';
import { useRollToken } from '../api/roll-token.ts';
import styles from './overlap-choices.module.css';

/** TR-12: how long the old value keeps working, in the order of ROLL_OVERLAPS (packages/contracts). */
const OVERLAP_LABELS: Record<RollOverlap, string> = {
  none: 'No, stop it now',
  '1h': '1 hour',
  '24h': '24 hours',
  '7d': '7 days',
};
const OVERLAPS = Object.keys(ROLL_OVERLAPS) as RollOverlap[];

/** AX-11: the identity of this dialog's draft for one token. */
export const rollTokenDraft = (id: string) => `roll-token:${id}`;

/** What the shown-once step needs: the new token and value, and the overlap chosen. */
interface RolledToken {
  rolled: CreatedToken;
  overlap: RollOverlap;
}

/**
 * TR-12: Roll → how long the old value keeps working → Roll token → the new value, shown once
 * with Copy, as after Generate token. The new token has the old one's name, description, scopes
 * and lifetime (TR-03). Render it only while open: closing unmounts it, and the value with it.
 */
export function RollTokenDialog({ token, onClose }: { token: AccessToken; onClose: () => void }) {
  const draft = useRestoredDraft(rollTokenDraft(token.id));
  return (
    <CreateDialog<RolledToken>
      title="Roll token"
      createdTitle="Token rolled"
      onClose={onClose}
      shownOnce={({ rolled }) => ({ value: rolled.value, noun: 'token' })}
      restored={draft !== undefined}
      renderForm={(step) => <RollForm token={token} draft={draft} {...step} />}
      warning={{
        title: 'Copy your new token now',
        body: (
          <>
            You will not see this token again. Put it wherever the old value is used; anyone who has it can call the API
            as you until it expires or you revoke it.
          </>
        ),
      }}
      renderCreated={({ rolled, overlap }) => (
        <>
          <RevealedSecret label="Token" value={rolled.value} />
          <p className="muted">
            {overlap === 'none' ? (
              <>The old value (ending in {token.last4}) no longer works. </>
            ) : (
              <>
                The old value (ending in {token.last4}) keeps working for {OVERLAP_LABELS[overlap]}, then the API
                refuses it.{' '}
              </>
            )}
            <strong>{rolled.token.name}</strong> now expires on <Time value={rolled.token.expires_at} />.
          </p>
        </>
      )}
    />
  );
}

function RollForm({
  token,
  draft,
  onCreated,
  onCancel,
}: {
  token: AccessToken;
  draft: RestoredDraft | undefined;
  onCreated: (rolled: RolledToken) => void;
  onCancel: () => void;
}) {
  const [overlap, setOverlap] = useState<RollOverlap>(
    () => draft?.oneOf('overlap', OVERLAPS, DEFAULT_ROLL_OVERLAP) ?? DEFAULT_ROLL_OVERLAP,
  );
  useDialogDraft(rollTokenDraft(token.id), { overlap });
  const id = useId();
  const roll = useRollToken({ onRolled: (rolled, { overlap: chosen }) => onCreated({ rolled, overlap: chosen }) });
  return (
    <CreateForm
      submitLabel="Roll token"
      pending={roll.isPending}
      error={roll.error ? errorMessage(roll.error) : undefined}
      onSubmit={() => roll.mutate({ id: token.id, overlap })}
      onCancel={onCancel}
    >
      <p>
        A new value replaces <strong>{token.name}</strong> (ending in <code>{token.last4}</code>), with the same name,
        description, scopes and lifetime: it lives as long from now as this one was made to live.
      </p>
      <fieldset
        className={styles.fieldset}
        role="radiogroup"
        aria-labelledby={`${id}-legend`}
        aria-describedby={`${id}-hint`}
      >
        <legend id={`${id}-legend`} className={`field__label ${styles.legend}`}>
          Old value keeps working
        </legend>
        {OVERLAPS.map((value) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name="overlap"
              value={value}
              checked={overlap === value}
              onChange={() => setOverlap(value)}
              data-autofocus={overlap === value ? true : undefined}
            />
            <span>{OVERLAP_LABELS[value]}</span>
          </label>
        ))}
        <p id={`${id}-hint`} className="field__hint">
          Until then both values work, so you can put the new one in place before the old one stops.
        </p>
      </fieldset>
    </CreateForm>
  );
}
