import { listSecurityEvents, presentSecurityEvent } from '@latchkey/core';
import {
  isSecurityEventType,
  SECURITY_EVENT_TYPES,
  type SecurityEventJson,
  type SecurityEventType,
} from '@latchkey/contracts';
import type { Executor } from '@latchkey/db';
import type { Command } from '../command.ts';
import { optionalOption, parseOptions } from '../parse-options.ts';
import { requireOwner } from '../require-owner.ts';
import { UsageError } from '../usage-error.ts';

export const AUDIT_USAGE = {
  list: 'audit list [--owner <email>] [--since <time>] [--type <type>] [--limit <N>]',
  export: 'audit export [--since <time>]',
} as const;

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;
/** AU-07: rows read per query while exporting, so a large log is never held in memory at once. */
export const EXPORT_PAGE_SIZE = 1000;

const DATE = /^(\d{4}-\d{2}-\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** A real calendar day: Date.parse('2026-02-30') quietly answers March 2nd. */
function isCalendarDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/**
 * `--since`: an ISO 8601 date (midnight UTC) or a date-time with its offset (`Z` or `+02:00`),
 * so the instant never depends on the machine's time zone. Anything else is a usage error.
 */
function parseSince(value: string | undefined, synopsis: string): number | undefined {
  if (value === undefined) return undefined;
  const day = DATE.exec(value)?.[1] ?? DATE_TIME.exec(value)?.[1];
  const time = day !== undefined && isCalendarDay(day) ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) {
    throw new UsageError(
      `--since must be an ISO 8601 date (2026-12-01) or date-time with an offset (2026-12-01T09:30:00Z) (usage: ${synopsis})`,
    );
  }
  return time;
}

function parseType(value: string | undefined): SecurityEventType | undefined {
  if (value === undefined || isSecurityEventType(value)) return value;
  throw new UsageError(
    `unknown event type ${JSON.stringify(value)} (expected one of ${SECURITY_EVENT_TYPES.join(', ')}; usage: ${AUDIT_USAGE.list})`,
  );
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT} (usage: ${AUDIT_USAGE.list})`);
  }
  return limit;
}

/** AU-07: every event, oldest first, read page by page as the output is written. */
async function* exportEvents(db: Executor, since: number | undefined): AsyncGenerator<SecurityEventJson> {
  let after: string | undefined;
  for (;;) {
    const page = await listSecurityEvents(db, { since, after, order: 'asc', limit: EXPORT_PAGE_SIZE });
    for (const row of page) yield presentSecurityEvent(row);
    if (page.length < EXPORT_PAGE_SIZE) return;
    after = page.at(-1)!.id;
  }
}

export function parseAuditCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'list': {
      const parsed = parseOptions(
        args,
        { owner: { type: 'string' }, since: { type: 'string' }, type: { type: 'string' }, limit: { type: 'string' } },
        AUDIT_USAGE.list,
      );
      const ownerEmail = optionalOption(parsed, 'owner');
      const since = parseSince(optionalOption(parsed, 'since'), AUDIT_USAGE.list);
      const type = parseType(optionalOption(parsed, 'type'));
      const limit = parseLimit(optionalOption(parsed, 'limit'));
      return {
        // AU-06: one JSON array, newest first; everyone's log unless --owner names one user.
        run: async (context) => {
          const userId = ownerEmail === undefined ? undefined : (await requireOwner(context, ownerEmail)).id;
          const rows = await listSecurityEvents(context.db, { userId, type, since, limit });
          return rows.map(presentSecurityEvent);
        },
      };
    }
    case 'export': {
      const parsed = parseOptions(args, { since: { type: 'string' } }, AUDIT_USAGE.export);
      const since = parseSince(optionalOption(parsed, 'since'), AUDIT_USAGE.export);
      return {
        // AU-07: JSON lines, not one document: main.ts writes each event as it is read.
        run: async (context) => exportEvents(context.db, since),
      };
    }
    default:
      throw new UsageError(`unknown audit command ${JSON.stringify(action ?? '')} (expected list or export)`);
  }
}
