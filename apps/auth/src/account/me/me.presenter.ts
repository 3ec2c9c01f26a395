import type { MeJson } from '@latchkey/contracts';
import type { Principal } from '@latchkey/core';

export function presentMe(principal: Principal): MeJson {
  return { id: principal.userId, name: principal.userName, email: principal.userEmail };
}
