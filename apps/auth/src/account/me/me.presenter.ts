import type { Principal } from '@latchkey/core';

export interface MeJson {
  id: string;
  name: string;
  email: string;
}

export function presentMe(principal: Principal): MeJson {
  return { id: principal.userId, name: principal.userName, email: principal.userEmail };
}
