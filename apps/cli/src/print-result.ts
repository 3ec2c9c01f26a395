import { once } from 'node:events';
import type { Writable } from 'node:stream';

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * Writes a command's result: one JSON document, or, when the command returns an async iterable
 * (AU-07's `audit export`), one JSON object per line as each arrives, waiting for the pipe to
 * drain so a large export never piles up in memory.
 */
export async function printResult(result: unknown, out: Writable): Promise<void> {
  if (!isAsyncIterable(result)) {
    out.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  for await (const item of result) {
    if (!out.write(`${JSON.stringify(item)}\n`)) await once(out, 'drain');
  }
}
