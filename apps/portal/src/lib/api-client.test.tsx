import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../testing/mocks/server.ts';
import { expectSignInRedirect } from '../testing/test-utils.tsx';
import { clientJson } from '@latchkey/contracts';
import { ApiError, apiRequest, SessionEndedError, type AnswerSchema } from './api-client.ts';

/** Takes any answer as it is. */
const anything: AnswerSchema<unknown> = { safeParse: (data) => ({ success: true, data }) };

function capture(method: 'get' | 'post', path: string, response: () => Response) {
  const seen: Request[] = [];
  server.use(
    http[method](path, ({ request }) => {
      seen.push(request.clone());
      return response();
    }),
  );
  return seen;
}

describe('api client', () => {
  it('sends GETs same-origin with no portal header and no body', async () => {
    const seen = capture('get', '/bff/api/thing', () => HttpResponse.json({ ok: true }));
    expect(await apiRequest('/bff/api/thing', anything)).toEqual({ ok: true });
    expect(seen[0]!.credentials).toBe('same-origin');
    expect(seen[0]!.headers.get('X-Latchkey-Portal')).toBeNull();
    expect(seen[0]!.headers.get('Content-Type')).toBeNull();
  });

  it('sends every POST with X-Latchkey-Portal: 1, and JSON only when there is a body', async () => {
    const seen = capture('post', '/bff/api/thing', () => HttpResponse.json({ ok: true }));
    await apiRequest('/bff/api/thing', anything, { method: 'POST', json: { name: 'x' } });
    await apiRequest('/bff/api/thing', anything, { method: 'POST' });
    expect(seen.map((r) => r.headers.get('X-Latchkey-Portal'))).toEqual(['1', '1']);
    expect(seen[0]!.headers.get('Content-Type')).toBe('application/json');
    expect(await seen[0]!.json()).toEqual({ name: 'x' });
    expect(seen[1]!.headers.get('Content-Type')).toBeNull();
  });

  it('rejects with the server’s description, code and field', async () => {
    capture('post', '/bff/api/thing', () =>
      HttpResponse.json({ error: 'validation_failed', error_description: 'Enter a name.', field: 'name' }, { status: 400 }),
    );
    const error = await apiRequest('/bff/api/thing', anything, { method: 'POST', json: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Enter a name.', field: 'name' });
  });

  it('an answer that is not what the contract says is an error, not data (issue 16)', async () => {
    capture('get', '/bff/api/thing', () => HttpResponse.json({ id: 'lkc_1', name: 'no other field' }));
    await expect(apiRequest('/bff/api/thing', clientJson)).rejects.toMatchObject({
      status: 200,
      code: 'unexpected_response',
      message: 'The portal answered in a way this page does not understand. Reload the page and try again.',
    });
    capture('get', '/bff/api/thing', () => new HttpResponse('<html>a proxy page</html>', { status: 200 }));
    await expect(apiRequest('/bff/api/thing', clientJson)).rejects.toMatchObject({ code: 'unexpected_response' });
  });

  it('gives a readable message when the error has no JSON body', async () => {
    capture('get', '/bff/api/thing', () => new HttpResponse('<html>oops</html>', { status: 500 }));
    await expect(apiRequest('/bff/api/thing', anything)).rejects.toMatchObject({
      status: 500,
      message: 'The service is temporarily unavailable. Try again shortly.',
    });
  });

  it('reports an unreachable portal as a network error', async () => {
    server.use(http.get('/bff/api/thing', () => HttpResponse.error()));
    await expect(apiRequest('/bff/api/thing', anything)).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('on 401 sends the browser to /bff/login with the current path and query as returnTo', async () => {
    window.history.replaceState(null, '', '/tokens?page=2&q=a b');
    capture('get', '/bff/api/thing', () => HttpResponse.json({ error: 'unauthenticated' }, { status: 401 }));
    await expect(apiRequest('/bff/api/thing', anything)).rejects.toBeInstanceOf(SessionEndedError);
    await expectSignInRedirect('/tokens?page=2&q=a%20b');
  });

  it('several requests answered 401 together send the browser to sign in once', async () => {
    window.history.replaceState(null, '', '/clients');
    capture('get', '/bff/api/thing', () => HttpResponse.json({ error: 'unauthenticated' }, { status: 401 }));
    const answers = await Promise.allSettled([1, 2, 3].map(() => apiRequest('/bff/api/thing', anything)));
    expect(answers.every((a) => a.status === 'rejected' && a.reason instanceof SessionEndedError)).toBe(true);
    expect(window.location.assign).toHaveBeenCalledTimes(1);
    expect(window.location.assign).toHaveBeenCalledWith(`/bff/login?returnTo=${encodeURIComponent('/clients')}`);
  });
});
