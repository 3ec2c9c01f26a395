// node-oidc-provider's storage for the benchmark (issue 38): its adapter interface
// (https://github.com/panva/node-oidc-provider/blob/main/example/my_adapter.js) over a SQLite file
// through node:sqlite, with the pragmas Latchkey's own SQLite driver sets (packages/db's
// node-sqlite.ts: WAL, synchronous NORMAL), so that neither side answers from memory alone.
// One table for every model, keyed by (model, id), with the secondary keys the provider looks up
// by (grant, session uid, user code). Prepared statements are made once per adapter instance.
// Written for the benchmark only: not part of Latchkey.
import { DatabaseSync, type StatementSync } from 'node:sqlite';

interface Payload {
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
  [key: string]: unknown;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS oidc_payloads (
    model TEXT NOT NULL,
    id TEXT NOT NULL,
    payload TEXT NOT NULL,
    grant_id TEXT,
    uid TEXT,
    user_code TEXT,
    expires_at INTEGER,
    PRIMARY KEY (model, id)
  );
  CREATE INDEX IF NOT EXISTS oidc_payloads_grant ON oidc_payloads (grant_id);
  CREATE INDEX IF NOT EXISTS oidc_payloads_uid ON oidc_payloads (model, uid);
  CREATE INDEX IF NOT EXISTS oidc_payloads_user_code ON oidc_payloads (model, user_code);
`;

interface Statements {
  upsert: StatementSync;
  find: StatementSync;
  findByUid: StatementSync;
  findByUserCode: StatementSync;
  consume: StatementSync;
  destroy: StatementSync;
  revokeByGrantId: StatementSync;
}

/** Opens (creating if needed) the file and returns the adapter class oidc-provider's `adapter` option takes. */
export function sqliteAdapter(file: string) {
  const db = new DatabaseSync(file, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(SCHEMA);
  const statements: Statements = {
    upsert: db.prepare(
      `INSERT INTO oidc_payloads (model, id, payload, grant_id, uid, user_code, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
         uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
    ),
    find: db.prepare('SELECT payload, expires_at FROM oidc_payloads WHERE model = ? AND id = ?'),
    findByUid: db.prepare('SELECT payload, expires_at FROM oidc_payloads WHERE model = ? AND uid = ?'),
    findByUserCode: db.prepare('SELECT payload, expires_at FROM oidc_payloads WHERE model = ? AND user_code = ?'),
    consume: db.prepare(
      `UPDATE oidc_payloads SET payload = json_set(payload, '$.consumed', ?) WHERE model = ? AND id = ?`,
    ),
    destroy: db.prepare('DELETE FROM oidc_payloads WHERE model = ? AND id = ?'),
    revokeByGrantId: db.prepare('DELETE FROM oidc_payloads WHERE grant_id = ?'),
  };

  const read = (row: unknown): Payload | undefined => {
    if (row === undefined) return undefined;
    const { payload, expires_at: expiresAt } = row as { payload: string; expires_at: number | null };
    if (expiresAt !== null && expiresAt <= Date.now()) return undefined;
    return JSON.parse(payload) as Payload;
  };

  return class SqliteAdapter {
    readonly #model: string;

    constructor(model: string) {
      this.#model = model;
    }

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      statements.upsert.run(
        this.#model,
        id,
        JSON.stringify(payload),
        payload.grantId ?? null,
        payload.uid ?? null,
        payload.userCode ?? null,
        expiresIn === undefined ? null : Date.now() + expiresIn * 1000,
      );
    }

    async find(id: string): Promise<Payload | undefined> {
      return read(statements.find.get(this.#model, id));
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      return read(statements.findByUid.get(this.#model, uid));
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      return read(statements.findByUserCode.get(this.#model, userCode));
    }

    async consume(id: string): Promise<void> {
      statements.consume.run(Math.floor(Date.now() / 1000), this.#model, id);
    }

    async destroy(id: string): Promise<void> {
      statements.destroy.run(this.#model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      statements.revokeByGrantId.run(grantId);
    }
  };
}
