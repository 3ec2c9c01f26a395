import { describe, expect, it } from 'vitest';
import {
  createPersonalAccessToken,
  recordSecurityEvent,
  requireUserByEmail,
  revokeAccessToken,
  type Clock,
} from '@latchkey/core';
import { SECURITY_EVENT_TYPES, securityEventJson, type SecurityEventJson } from '@latchkey/contracts';
import { perFile } from '#test/support/per-file.ts';
import { DAY, expectFailure, expectSuccess, OTHER, OWNER, useSeededSandbox } from '../cli.fixture.ts';
import { UsageError } from '../usage-error.ts';
import { EXPORT_PAGE_SIZE, parseAuditCommand } from './audit.command.ts';

const sandbox = useSeededSandbox();
const cli = (args: string[]) => sandbox.run(args);

const MINUTE = 60_000;
const TOKEN_TTL_SECONDS = (365 * DAY) / 1000;
/** The seeded events' times: long before the users were created, so no other event falls between them. */
const T0 = Date.UTC(2026, 2, 1);
const at = (time: number): Clock => ({ now: () => time });
const iso = (time: number) => new Date(time).toISOString();

/**
 * Events written through core, as the servers and the CLI write them (AU-11): without an actor,
 * an operator's. Olive creates tokens A and B and A is revoked; Otto creates token C.
 */
const seeded = perFile(async () =>
  sandbox.withDb(async (db) => {
    const owner = await requireUserByEmail(db, OWNER);
    const other = await requireUserByEmail(db, OTHER);
    const create = async (userId: string, name: string, time: number) =>
      (await createPersonalAccessToken(db, at(time), TOKEN_TTL_SECONDS, { userId, name })).summary.id;
    const a = await create(owner.id, 'a', T0 + MINUTE);
    const b = await create(owner.id, 'b', T0 + 2 * MINUTE);
    await revokeAccessToken(db, at(T0 + 3 * MINUTE), a);
    const c = await create(other.id, 'c', T0 + 4 * MINUTE);
    return {
      users: { owner: owner.id, other: other.id },
      tokens: { a, b, c },
    };
  }),
);

/** The seeded events among `events`, as [type, token id, time] in the order printed. */
function seededEvents(events: SecurityEventJson[]): Array<[string, string, string]> {
  const ours = new Set(Object.values(seeded.tokens));
  return events
    .filter((event) => event.target_id !== null && ours.has(event.target_id))
    .map((event) => [event.type, event.target_id!, event.created_at]);
}

describe('admin CLI: audit commands', () => {
  it('AU-06 audit list prints the security log as a JSON array, newest first: every field of the contract, the CLI as operator, no address', async () => {
    const { a, b, c } = seeded.tokens;
    const run = await cli(['audit', 'list']);
    expectSuccess(run);
    const events = run.json as SecurityEventJson[];
    for (const event of events) expect(securityEventJson.parse(event)).toEqual(event);
    expect(seededEvents(events)).toEqual([
      ['token.created', c, iso(T0 + 4 * MINUTE)],
      ['token.revoked', a, iso(T0 + 3 * MINUTE)],
      ['token.created', b, iso(T0 + 2 * MINUTE)],
      ['token.created', a, iso(T0 + MINUTE)],
    ]);
    const times = events.map((event) => Date.parse(event.created_at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(events.find((event) => event.target_id === c && event.type === 'token.created')).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'token.created',
      user_id: seeded.users.other,
      actor: 'operator',
      actor_id: null,
      ip: null,
      user_agent: null,
      target_type: 'access_token',
      target_id: c,
      outcome: 'success',
      created_at: iso(T0 + 4 * MINUTE),
    });
  });

  it('AU-06 audit list --owner and --type keep the events of one user or of one type; an unknown owner exits 1', async () => {
    const { a, b } = seeded.tokens;
    const [owner, revoked, ghost] = await Promise.all([
      cli(['audit', 'list', '--owner', OWNER]),
      cli(['audit', 'list', '--type', 'token.revoked']),
      cli(['audit', 'list', '--owner', 'ghost@example.test']),
    ]);
    for (const run of [owner, revoked]) expectSuccess(run!);
    expect((owner!.json as SecurityEventJson[]).every((event) => event.user_id === seeded.users.owner)).toBe(true);
    expect(seededEvents(owner!.json).map(([type, id]) => [type, id])).toEqual([
      ['token.revoked', a],
      ['token.created', b],
      ['token.created', a],
    ]);
    expect((revoked!.json as SecurityEventJson[]).every((event) => event.type === 'token.revoked')).toBe(true);
    expect(seededEvents(revoked!.json).map(([type, id]) => [type, id])).toEqual([['token.revoked', a]]);
    expectFailure(ghost!, 1, /no user with email "ghost@example.test"/);
  });

  it('AU-06 audit list --since (a date, or a date-time with its offset) keeps the later events, and --limit the newest N', async () => {
    const { a, b } = seeded.tokens;
    const [since, sinceDay, limited] = await Promise.all([
      // T0 + 2 minutes, written in UTC+01:00.
      cli(['audit', 'list', '--owner', OWNER, '--since', '2026-03-01T01:02:00+01:00']),
      cli(['audit', 'list', '--since', '2026-03-02']),
      cli(['audit', 'list', '--owner', OWNER, '--limit', '2']),
    ]);
    for (const run of [since, sinceDay, limited]) expectSuccess(run!);
    expect(seededEvents(since!.json).map(([type, id]) => [type, id])).toEqual([
      ['token.revoked', a],
      ['token.created', b],
    ]);
    expect((since!.json as SecurityEventJson[]).every((event) => event.created_at >= iso(T0 + 2 * MINUTE))).toBe(true);
    expect(seededEvents(sinceDay!.json)).toEqual([]);
    expect(limited!.json).toHaveLength(2);
    expect(seededEvents(limited!.json).map(([type, id]) => [type, id])).toEqual(
      seededEvents(since!.json)
        .map(([type, id]) => [type, id])
        .slice(0, 2),
    );
  });

  it('AU-07 audit export prints every event as one JSON object per line, oldest first, page after page; --since keeps the later ones', async () => {
    // More than a page of events, so the export reads several pages and crosses their boundary.
    const bulk = EXPORT_PAGE_SIZE + 150;
    await sandbox.withDb(async (db) => {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < bulk; i++) {
          await recordSecurityEvent(trx, {
            userId: seeded.users.other,
            type: 'sign_in',
            actor: 'user',
            actorId: seeded.users.other,
            origin: { ip: '192.0.2.7', userAgent: 'audit-test' },
            at: T0 + 10 * MINUTE + i,
          });
        }
      });
    });

    const run = await cli(['audit', 'export']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.endsWith('\n')).toBe(true);
    const lines = run.stdout.slice(0, -1).split('\n');
    const events = lines.map((line) => securityEventJson.parse(JSON.parse(line)));
    // Compact, one object per line: no line is part of a larger document.
    for (const line of lines) expect(line).toMatch(/^\{"id":"evt_[^\n]*\}$/);

    const all = await cli(['audit', 'list', '--limit', '10000']);
    expectSuccess(all);
    expect(events).toEqual([...(all.json as SecurityEventJson[])].reverse());
    const ids = events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    const times = events.map((event) => Date.parse(event.created_at));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    const { a, b, c } = seeded.tokens;
    expect(seededEvents(events).map(([type, id]) => [type, id])).toEqual([
      ['token.created', a],
      ['token.created', b],
      ['token.revoked', a],
      ['token.created', c],
    ]);
    const signIns = events.filter((event) => event.type === 'sign_in' && event.user_agent === 'audit-test');
    expect(signIns).toHaveLength(bulk);
    expect(signIns[0]).toMatchObject({ actor: 'user', actor_id: seeded.users.other, ip: '192.0.2.7' });

    const later = await cli(['audit', 'export', '--since', iso(T0 + 3 * MINUTE)]);
    expect(later.code, later.stderr).toBe(0);
    const laterEvents = later.stdout
      .trim()
      .split('\n')
      .map((line) => securityEventJson.parse(JSON.parse(line)));
    expect(laterEvents).toEqual(events.filter((event) => Date.parse(event.created_at) >= T0 + 3 * MINUTE));
    expect(seededEvents(laterEvents).map(([type, id]) => [type, id])).toEqual([
      ['token.revoked', a],
      ['token.created', c],
    ]);
  });

  it('AU-06 AU-07 a bad --type, --since or --limit is a usage error (exit 2) that names what is accepted, before the database is opened', async () => {
    // Two through the CLI for the exit status and the one-line message; the rest are the same parser.
    const [type, exportSince] = await Promise.all([
      cli(['audit', 'list', '--type', 'token.stolen']),
      cli(['audit', 'export', '--since', '1 Mar 2026']),
    ]);
    expectFailure(type!, 2, /unknown event type "token\.stolen" \(expected one of sign_in, sign_in_failed, /);
    for (const name of SECURITY_EVENT_TYPES) expect(type!.stderr).toContain(name);
    expectFailure(exportSince!, 2, /--since must be an ISO 8601 date .*usage: audit export/);

    const refusal = (action: string, args: string[]) => () => parseAuditCommand(action, args);
    for (const since of [
      'yesterday',
      '2026-02-30',
      '2026-03-01T10:00:00',
      '2026-03-01T25:00Z',
      '2026-03-01 10:00Z',
      '',
    ]) {
      expect(refusal('list', ['--since', since]), since).toThrow(/--since must be an ISO 8601 date/);
    }
    for (const limit of ['0', '10001', '1.5', 'all']) {
      expect(refusal('list', ['--limit', limit]), limit).toThrow(/--limit must be a whole number from 1 to 10000/);
    }
    expect(refusal('list', ['--type', 'Token.Revoked'])).toThrow(UsageError);
    expect(refusal('tail', [])).toThrow(/unknown audit command "tail" \(expected list or export\)/);
    expect(refusal('export', ['--type', 'sign_in'])).toThrow(/usage: audit export/);
    expect(refusal('list', ['--owner'])).toThrow(UsageError);
    // The accepted forms, for contrast.
    for (const since of ['2026-03-01', '2026-03-01T10:00Z', '2026-03-01T10:00:00.5-05:30']) {
      expect(refusal('list', ['--since', since])).not.toThrow();
    }
    expect(refusal('list', ['--limit', '10000'])).not.toThrow();
  });
});
