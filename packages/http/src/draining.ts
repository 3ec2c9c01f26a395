import type { IncomingMessage } from 'node:http';

// A request that arrives while its server shuts down (@latchkey/process serve.ts marks it)
// gets 503 from /readyz (health.ts): the mark lives here, below both.

const DRAINING = Symbol('latchkey.draining');

export function markDraining(req: IncomingMessage): void {
  (req as IncomingMessage & { [DRAINING]?: true })[DRAINING] = true;
}

/** True for a request that arrived while its server was shutting down: /readyz answers 503. */
export function isDraining(req: IncomingMessage): boolean {
  return (req as IncomingMessage & { [DRAINING]?: true })[DRAINING] === true;
}
