// The migration tests' view of a table: every row by its id, numbers as numbers (PostgreSQL
// answers bigint as text), so a row read before a migration compares with the same row after.
import type { Kysely } from 'kysely';

export type RowsById = Record<string, Record<string, unknown>>;

export async function rowsById(db: Kysely<any>, table: string): Promise<RowsById> {
  const rows: Array<Record<string, unknown>> = await db.selectFrom(table).selectAll().orderBy('id').execute();
  return Object.fromEntries(
    rows.map((row) => [
      row.id,
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          typeof value === 'bigint' || (key.endsWith('_at') && typeof value === 'string') ? Number(value) : value,
        ]),
      ),
    ]),
  );
}
