// The admin CLI's dispatch: parses a command line, runs the command, prints its result, and
// maps failures to one line and an exit status (2 for usage errors, 1 for everything else).
import type { Writable } from 'node:stream';
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

/** Where a run reads its configuration and writes its answer: the process's own in main.ts. */
export interface CliIo {
  /** The process's environment (loadConfig's default) unless given. */
  env?: NodeJS.ProcessEnv;
  stdout: Writable;
  stderr: Writable;
}

async function execute(argv: string[], io: CliIo): Promise<number> {
  const command = parseCommand(argv);
  if (command === 'help') {
    io.stdout.write(helpText());
    return 0;
  }
  const context = await openContext(io.env);
  try {
    const result = await command.run(context);
    await printResult(result, io.stdout);
    return 0;
  } finally {
    await context.db.destroy();
  }
}

/**
 * One CLI run: the command of `argv` against the configuration of `io.env`, its JSON on
 * `io.stdout`; on failure one line on `io.stderr`. Resolves with the exit status.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await execute(argv, io);
  } catch (err) {
    const { message, exitCode } = describeFailure(err);
    io.stderr.write(`error: ${oneLine(message)}\n`);
    return exitCode;
  }
}
