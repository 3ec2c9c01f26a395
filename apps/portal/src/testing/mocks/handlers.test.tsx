import { describe, expect, it } from 'vitest';
import { ACCOUNT_ROUTES, BFF_ACCOUNT_BASE } from '@latchkey/contracts';
import { handlers } from './handlers.ts';

// The mock server imitates every route of the account table (packages/contracts) and nothing
// the table does not have, so a portal test can never pass against a route the BFF lacks.
describe('the mock BFF follows the account route table', () => {
  const mocked = new Set(
    handlers
      .map((handler) => handler.info as { method?: unknown; path?: unknown })
      .filter((info) => typeof info.path === 'string' && info.path.startsWith(`${BFF_ACCOUNT_BASE}/`))
      .map((info) => `${String(info.method)} ${String(info.path)}`),
  );
  const table = new Set(
    ACCOUNT_ROUTES.flatMap((route) =>
      Object.keys(route.answers).map((method) => `${method} ${BFF_ACCOUNT_BASE}${route.path}`),
    ),
  );

  it('has a handler for each method of each route, and none besides', () => {
    expect([...mocked].sort()).toEqual([...table].sort());
  });
});
