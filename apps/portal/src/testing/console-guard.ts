/**
 * An unexpected `console.error` fails the test: React reports bugs there
 * (missing keys, act() warnings, failed prop types). A test that provokes one on purpose says so.
 */
let allowed: RegExp[] = [];
let seen: string[] = [];

export function allowConsoleError(pattern: RegExp): void {
  allowed.push(pattern);
}

export function recordConsoleError(args: unknown[]): void {
  const message = args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' ');
  if (!allowed.some((pattern) => pattern.test(message))) seen.push(message);
}

export function takeConsoleErrors(): string[] {
  const errors = seen;
  seen = [];
  allowed = [];
  return errors;
}
