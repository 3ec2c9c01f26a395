import { Alert } from '../../../components/alert.tsx';
import { usePersonalTokens } from '../api/get-tokens.ts';
import { expiringSoonMessage } from '../expiration/expires-soon.ts';

/**
 * TR-10: at the top of the API tokens page, while any active personal access token expires
 * soon (TR-09), which ones and when, so they are rolled before scripts start failing; nothing
 * otherwise. The list's query, so no extra request.
 */
export function ExpiringSoonBanner() {
  const tokens = usePersonalTokens();
  const message = tokens.data === undefined ? undefined : expiringSoonMessage(tokens.data, tokens.dataUpdatedAt);
  if (message === undefined) return null;
  return (
    <div role="status">
      <Alert tone="warning">{message}</Alert>
    </div>
  );
}
