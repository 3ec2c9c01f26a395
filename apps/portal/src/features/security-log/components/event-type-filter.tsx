import { SECURITY_EVENT_TYPES, type SecurityEventType } from '@latchkey/contracts';
import { Field } from '../../../components/field.tsx';
import { EVENT_LABELS } from '../describe-event.ts';
import styles from './security-log.module.css';

/** The filter's groups, by the part of an event type before its dot; sign-ins have none. */
const GROUPS: ReadonlyArray<{ label: string; types: SecurityEventType[] }> = [
  { label: 'Sign-in', types: SECURITY_EVENT_TYPES.filter((type) => !type.includes('.')) },
  { label: 'API tokens', types: SECURITY_EVENT_TYPES.filter((type) => type.startsWith('token.')) },
  { label: 'API clients', types: SECURITY_EVENT_TYPES.filter((type) => type.startsWith('client.')) },
  {
    label: 'Applications and devices',
    types: SECURITY_EVENT_TYPES.filter((type) => type.startsWith('application.') || type.startsWith('device.')),
  },
];

/** AU-08: "Event type": every event, or one type, which the log is then read for (`type`). */
export function EventTypeFilter({
  value,
  onChange,
}: {
  value: SecurityEventType | undefined;
  onChange: (type: SecurityEventType | undefined) => void;
}) {
  return (
    <div className={styles.filter}>
      <Field label="Event type">
        {(control) => (
          <select
            {...control}
            value={value ?? ''}
            onChange={(event) => onChange((event.target.value || undefined) as SecurityEventType | undefined)}
          >
            <option value="">All events</option>
            {GROUPS.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.types.map((type) => (
                  <option key={type} value={type}>
                    {EVENT_LABELS[type]}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
