import { describe, expect, it } from 'vitest';
import { InvalidGrant, NotFound } from '@latchkey/core';
import { DependencyUnavailableError } from './dependency-unavailable.ts';
import { classifyError } from './classify-error.ts';
import { MethodNotAllowed } from './edge-errors.ts';

// Issue 16: the one classifier every surface renders from.
describe('classifyError', () => {
  it('sorts domain, HTTP, input, dependency and bug', () => {
    expect(classifyError(new InvalidGrant('used')).kind).toBe('domain');
    expect(classifyError(new MethodNotAllowed('GET')).kind).toBe('http');
    expect(classifyError(Object.assign(new Error('too large'), { status: 413, type: 'entity.too.large' }))).toEqual({
      kind: 'input',
      status: 413,
    });
    expect(classifyError(new DependencyUnavailableError('redis', 'down')).kind).toBe('dependency');
    expect(classifyError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).kind).toBe('dependency');
    expect(classifyError(new TypeError("Cannot read properties of undefined (reading 'id')")).kind).toBe('bug');
    expect(classifyError('a string').kind).toBe('bug');
  });

  it('a domain error carries the status every surface answers it with, as an edge refusal does', () => {
    const kind = classifyError(new NotFound('No such endpoint.'));
    expect(kind.kind).toBe('domain');
    expect(kind.kind === 'domain' && [kind.error.status, kind.error.code]).toEqual([404, 'not_found']);
    expect(new MethodNotAllowed('GET').status).toBe(405);
  });

  it('a client that aborts its upload is the client\'s doing (400), not an outage, though its code is ECONNABORTED', () => {
    const aborted = Object.assign(new Error('request aborted'), { status: 400, code: 'ECONNABORTED', type: 'request.aborted' });
    expect(classifyError(aborted)).toEqual({ kind: 'input', status: 400 });
  });
});
