import type { Principal } from '@latchkey/core';

/** The GraphQL context: every operation runs for an authenticated token (D-6). */
export type ApiContext = {
  principal: Principal;
};
