import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { db } from '../../../testing/mocks/db.ts';
import { server } from '../../../testing/mocks/server.ts';
import { expectSignInRedirect } from '../../../testing/test-utils.tsx';
import { fetchGraphQL } from './graphql-fetcher.ts';

describe('Explorer fetcher', () => {
  it('POSTs the operation to /bff/graphql, same-origin, with the portal header and no Authorization', async () => {
    let seen: Request | undefined;
    server.use(
      http.post('/bff/graphql', ({ request }) => {
        seen = request.clone();
        return HttpResponse.json({ data: { profile: { name: 'Ada Lovelace' } } });
      }),
    );
    const result = await fetchGraphQL({ query: '{ profile { name } }', operationName: null });

    expect(result).toEqual({ data: { profile: { name: 'Ada Lovelace' } } });
    expect(new URL(seen!.url).pathname).toBe('/bff/graphql');
    expect(seen!.credentials).toBe('same-origin');
    expect(seen!.headers.get('X-Latchkey-Portal')).toBe('1');
    expect(seen!.headers.get('Content-Type')).toBe('application/json');
    expect(seen!.headers.get('Authorization')).toBeNull();
    expect(await seen!.json()).toEqual({ query: '{ profile { name } }', operationName: null });
  });

  it('returns GraphQL errors sent with a 4xx as the response, for GraphiQL to show', async () => {
    server.use(http.post('/bff/graphql', () => HttpResponse.json({ errors: [{ message: 'Cannot query field "nope".' }] }, { status: 400 })));
    expect(await fetchGraphQL({ query: '{ nope }' })).toEqual({ errors: [{ message: 'Cannot query field "nope".' }] });
  });

  it('turns a non-GraphQL failure into a readable error response', async () => {
    server.use(http.post('/bff/graphql', () => new HttpResponse('Bad gateway', { status: 502, headers: { 'Content-Type': 'text/plain' } })));
    expect(await fetchGraphQL({ query: '{ profile { name } }' })).toEqual({
      errors: [{ message: 'The GraphQL endpoint answered 502 without a GraphQL response.' }],
    });
  });

  it('sends the user to sign in when the session has ended', async () => {
    db.signedIn = false;
    window.history.replaceState(null, '', '/explorer');
    await expect(fetchGraphQL({ query: '{ profile { name } }' })).rejects.toThrow('Your session has ended');
    await expectSignInRedirect('/explorer');
  });
});
