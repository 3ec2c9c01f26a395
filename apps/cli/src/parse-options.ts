import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

export interface ParsedOptions {
  values: Record<string, string | string[] | boolean | undefined>;
  positionals: string[];
}

/**
 * node:util parseArgs in strict mode (unknown flags and missing values are errors), with the
 * number of positionals checked and every failure turned into a one-line UsageError that
 * names the command's synopsis.
 */
export function parseOptions(
  args: string[],
  options: ParseArgsOptionsConfig,
  synopsis: string,
  positionalCount = 0,
): ParsedOptions {
  let parsed: ParsedOptions;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionalCount > 0 }) as ParsedOptions;
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]} (usage: ${synopsis})`);
  }
  if (parsed.positionals.length !== positionalCount) {
    throw new UsageError(
      `expected ${positionalCount || 'no'} argument${positionalCount === 1 ? '' : 's'} (usage: ${synopsis})`,
    );
  }
  return parsed;
}

/** A string flag that must be present and non-empty. */
export function requireOption(parsed: ParsedOptions, name: string, synopsis: string): string {
  const value = parsed.values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`missing --${name} (usage: ${synopsis})`);
  return value;
}

export function optionalOption(parsed: ParsedOptions, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A flag given any number of times (`multiple: true`): every value, in order; undefined if never. */
export function repeatedOption(parsed: ParsedOptions, name: string): string[] | undefined {
  const value = parsed.values[name];
  return Array.isArray(value) && value.length > 0 ? value : undefined;
}
