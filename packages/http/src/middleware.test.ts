import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { inSequence, runMiddleware, type Middleware } from './middleware.ts';

// Issue 16: one way to run a chain of middleware, whatever a step does when it fails.
const req = {} as IncomingMessage;
const res = {} as ServerResponse;

function run(steps: Middleware[]): Promise<{ err: unknown; calls: number }> {
  return new Promise((resolve) => {
    let calls = 0;
    let last: unknown;
    runMiddleware(steps, req, res, (err) => {
      calls += 1;
      last = err;
      // Let any late second call show up before answering.
      setTimeout(() => resolve({ err: last, calls }), 10);
    });
  });
}

describe('runMiddleware and inSequence', () => {
  it('runs the steps in order, then done without an error', async () => {
    const seen: number[] = [];
    const outcome = await run([1, 2, 3].map((n) => (_q, _s, next) => (seen.push(n), next())));
    expect(seen).toEqual([1, 2, 3]);
    expect(outcome).toEqual({ err: undefined, calls: 1 });
  });

  it('a step that throws, one that rejects before next, and one that passes an error all end the run alike', async () => {
    const boom = new Error('boom');
    const after: Middleware = () => {
      throw new Error('must not run');
    };
    for (const failing of [
      (() => {
        throw boom;
      }) as Middleware,
      (async () => {
        await Promise.resolve();
        throw boom;
      }) as Middleware,
      ((_q, _s, next) => next(boom)) as Middleware,
    ]) {
      expect(await run([failing, after])).toEqual({ err: boom, calls: 1 });
    }
  });

  it('a step that calls next and later rejects does not end the run twice', async () => {
    const late: Middleware = async (_q, _s, next) => {
      next();
      await Promise.resolve();
      throw new Error('too late');
    };
    expect(await run([late])).toEqual({ err: undefined, calls: 1 });
  });

  it('inSequence makes one middleware of several', async () => {
    const seen: string[] = [];
    const both = inSequence<IncomingMessage, ServerResponse>([
      (_q, _s, next) => (seen.push('a'), next()),
      (_q, _s, next) => (seen.push('b'), next()),
    ]);
    expect(await run([both])).toEqual({ err: undefined, calls: 1 });
    expect(seen).toEqual(['a', 'b']);
  });
});
