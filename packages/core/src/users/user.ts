import type { UsersTable } from '@latchkey/db';

export interface User {
  id: string;
  email: string;
  name: string;
  createdAt: number;
}

export function userRowToUser(row: Pick<UsersTable, 'id' | 'email' | 'name' | 'created_at'>): User {
  return { id: row.id, email: row.email, name: row.name, createdAt: Number(row.created_at) };
}
