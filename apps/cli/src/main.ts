// Latchkey admin CLI: `node apps/cli/src/main.ts <command>`, or `npm run --silent cli -- <command>`.
// One JSON document on stdout; on failure a one-line message on stderr and a non-zero exit
// (2 for usage errors, 1 for everything else), never a stack trace.
import { ConfigError } from '@latchkey/config';
import { ValidationFailed } from '@latchkey/core';
import { classifyError } from '@latchkey/http';
import type { Command } from './command.ts';
import { parseClientCommand } from './commands/client.command.ts';
import { parseGrantCommand } from './commands/grant.command.ts';
import { helpText } from './commands/help.command.ts';
import { parseKeysCommand } from './commands/keys.command.ts';
import { parseTokenCommand } from './commands/token.command.ts';
import { parseMigrateCommand } from './commands/migrate.command.ts';
import { parsePurgeCommand } from './commands/purge.command.ts';
import { parseAuditCommand } from './commands/audit.command.ts';
import { printResult } from './print-result.ts';
import { parseRegistrationCommand } from './commands/registration.command.ts';
import { parseResourceCommand } from './commands/resource.command.ts';
import { parseUserCommand } from './commands/user.command.ts';
import { openContext } from './open-context.ts';
import { UsageError } from './usage-error.ts';

const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

const resources: Record<string, (action: string | undefined, args: string[]) => Command> = {
  user: parseUserCommand,
  client: parseClientCommand,
  token: parseTokenCommand,
  grant: parseGrantCommand,
  keys: parseKeysCommand,
  resource: parseResourceCommand,
  registration: parseRegistrationCommand,
  migrate: parseMigrateCommand,
  purge: parsePurgeCommand,
  audit: parseAuditCommand,
};

function parseCommand(argv: string[]): Command | 'help' {
  const [resource, action, ...args] = argv;
  if (resource === undefined) throw new UsageError('no command given; run "help" for the list of commands');
  if (resource === 'help' || resource === '--help' || resource === '-h') return 'help';
  const parse = Object.hasOwn(resources, resource) ? resources[resource] : undefined;
  if (!parse) throw new UsageError(`unknown command ${JSON.stringify(resource)}; run "help" for the list of commands`);
  return parse(action, args);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, '; ').trim();
}

function describeFailure(err: unknown): { message: string; exitCode: number } {
  if (err instanceof UsageError) return { message: err.message, exitCode: EXIT_USAGE };
  if (err instanceof ConfigError)
    return { message: `invalid configuration: ${err.problems.join('; ')}`, exitCode: EXIT_FAILURE };
  // The kinds every surface shares (classifyError): a rule of core says why in its own words;
  // anything else (an outage, a bug) is reported with its message.
  const kind = classifyError(err);
  if (kind.kind === 'domain') {
    const { error } = kind;
    const message = error instanceof ValidationFailed ? `${error.field}: ${error.description}` : error.description;
    return { message, exitCode: EXIT_FAILURE };
  }
  const detail = err instanceof Error ? err.message : String(err);
  return { message: `failed: ${detail}`, exitCode: EXIT_FAILURE };
}

async function main(argv: string[]): Promise<number> {
  const command = parseCommand(argv);
  if (command === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  const context = await openContext();
  try {
    const result = await command.run(context);
    await printResult(result, process.stdout);
    return 0;
  } finally {
    await context.db.destroy();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  const { message, exitCode } = describeFailure(err);
  process.stderr.write(`error: ${oneLine(message)}\n`);
  process.exitCode = exitCode;
}
