import { waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { SECURITY_EVENT_TYPES, SECURITY_LOG_PAGE_SIZE } from '@latchkey/contracts';
import { DAY, db, iso, makeSecurityEvent, NOW } from '../../testing/mocks/db.ts';
import { server } from '../../testing/mocks/server.ts';
import { renderApp, screen } from '../../testing/test-utils.tsx';

const MINUTE = 60 * 1000;

/** The security log's table body rows, each as the cells' text. */
async function rowsOfLog(): Promise<string[][]> {
  const table = await screen.findByRole('table', { name: 'Security log' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

function logRequests() {
  return db.requests.filter((request) => request.path === '/bff/api/security-log');
}

describe('Security log page', () => {
  it('AU-08 lists the events newest first with readable labels, who acted, from where and on what; a failure is marked', async () => {
    db.securityEvents = [
      makeSecurityEvent({ created_at: iso(NOW - 2 * DAY) }),
      makeSecurityEvent({
        type: 'sign_in_failed',
        actor_id: null,
        outcome: 'failure',
        ip: '198.51.100.4',
        user_agent: 'curl/8.5.0',
        created_at: iso(NOW - DAY),
      }),
      makeSecurityEvent({
        type: 'token.created',
        target_type: 'access_token',
        target_id: 'tok_7fK2pQ9xLm3vB8nR4tYz',
        created_at: iso(NOW - 10 * MINUTE),
      }),
      makeSecurityEvent({
        type: 'token.reported',
        actor: 'reporter',
        actor_id: null,
        ip: '192.0.2.50',
        user_agent: 'secret-scanner/2.1',
        target_type: 'access_token',
        target_id: 'tok_7fK2pQ9xLm3vB8nR4tYz',
        created_at: iso(NOW - 5 * MINUTE),
      }),
      makeSecurityEvent({
        type: 'token.expired',
        actor: 'system',
        actor_id: null,
        ip: null,
        user_agent: null,
        target_type: 'access_token',
        target_id: 'tok_short',
        created_at: iso(NOW - 3 * MINUTE),
      }),
      makeSecurityEvent({
        type: 'client.revoked',
        actor: 'operator',
        actor_id: null,
        ip: null,
        user_agent: null,
        target_type: 'client',
        target_id: 'lkc_Q1w2E3r4T5y6U7i8O9p0A1s2',
        created_at: iso(NOW - MINUTE),
      }),
    ];
    renderApp('/security-log');

    expect(await screen.findByRole('heading', { level: 1, name: 'Security log' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Security log' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['When', 'Event', 'By', 'From', 'Target']);
    const rows = await rowsOfLog();
    expect(rows.map((cells) => cells[1])).toEqual([
      'Client revoked',
      'Token expired',
      'Token reported as exposed',
      'Token created',
      'Failed sign-inFailed',
      'Sign-in',
    ]);
    expect(rows.map((cells) => cells[2])).toEqual([
      'An operator',
      'Latchkey',
      'Someone who reported it exposed',
      'You',
      'Someone',
      'You',
    ]);
    expect(rows.map((cells) => cells[3])).toEqual([
      'Not recorded',
      'Not recorded',
      '192.0.2.50secret-scanner/2.1',
      '203.0.113.7Safari on macOS',
      '198.51.100.4curl/8.5',
      '203.0.113.7Safari on macOS',
    ]);
    expect(rows.map((cells) => cells[4])).toEqual([
      'Client lkc_Q1w2E3…A1s2',
      'Token tok_short',
      'Token tok_7fK2pQ…4tYz',
      'Token tok_7fK2pQ…4tYz',
      'None',
      'None',
    ]);

    // When: how long ago, and the exact moment, for people and machines.
    const when = within(within(table).getAllByRole('row')[1]!).getByText('1 minute ago');
    expect(when.tagName).toBe('TIME');
    expect(when.getAttribute('dateTime')).toBe(db.securityEvents[5]!.created_at);
    expect(when.getAttribute('title')).toBeTruthy();
    // The full id and User-Agent on hover.
    expect(within(table).getAllByTitle('tok_7fK2pQ9xLm3vB8nR4tYz')).toHaveLength(2);
    expect(within(table).getByTitle('secret-scanner/2.1').textContent).toBe('secret-scanner/2.1');

    // The failure is marked, and only it.
    const failed = within(table).getAllByText('Failed', { exact: true });
    expect(failed).toHaveLength(1);
    expect(failed[0]!.className).toContain('badge--danger');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(logRequests().map((request) => request.query.toString())).toEqual(['']);
    await waitFor(() => expect(document.title).toBe('Security log · Latchkey'));
  });

  it('AU-08 the Event type filter offers every type by its label, sends `type`, and shows only what the log answers', async () => {
    db.securityEvents = [
      makeSecurityEvent({ type: 'sign_in', created_at: iso(NOW - 3 * MINUTE) }),
      makeSecurityEvent({ type: 'token.created', created_at: iso(NOW - 2 * MINUTE) }),
      makeSecurityEvent({ type: 'token.revoked', created_at: iso(NOW - MINUTE) }),
    ];
    const { user } = renderApp('/security-log');
    expect((await rowsOfLog()).map((cells) => cells[1])).toEqual(['Token revoked', 'Token created', 'Sign-in']);

    const filter = screen.getByLabelText<HTMLSelectElement>('Event type');
    expect(filter.value).toBe('');
    const options = [...filter.options];
    expect(options[0]!.text).toBe('All events');
    expect(options.slice(1).map((option) => option.value)).toEqual([...SECURITY_EVENT_TYPES]);
    expect(options.map((option) => option.text)).toContain('Failed sign-in');

    await user.selectOptions(filter, 'Token revoked');
    await waitFor(async () => expect((await rowsOfLog()).map((cells) => cells[1])).toEqual(['Token revoked']));
    expect(logRequests().at(-1)!.query.get('type')).toBe('token.revoked');
    expect(window.location.search).toBe('?type=token.revoked');

    await user.selectOptions(filter, 'All events');
    await waitFor(async () => expect(await rowsOfLog()).toHaveLength(3));
    expect(window.location.search).toBe('');
  });

  it('AU-08 a filter in the URL is the one shown and sent', async () => {
    db.securityEvents = [
      makeSecurityEvent({ type: 'sign_in' }),
      makeSecurityEvent({ type: 'sign_out', created_at: iso(NOW - MINUTE) }),
    ];
    renderApp('/security-log?type=sign_out');
    expect((await rowsOfLog()).map((cells) => cells[1])).toEqual(['Sign-out']);
    expect(screen.getByLabelText<HTMLSelectElement>('Event type').value).toBe('sign_out');
    expect(logRequests().map((request) => request.query.get('type'))).toEqual(['sign_out']);
  });

  it('AU-08 an unknown type in the URL is every event, and is not sent', async () => {
    db.securityEvents = [
      makeSecurityEvent({ type: 'sign_in' }),
      makeSecurityEvent({ type: 'sign_out', created_at: iso(NOW - MINUTE) }),
    ];
    renderApp('/security-log?type=token.stolen');
    expect((await rowsOfLog()).map((cells) => cells[1])).toEqual(['Sign-out', 'Sign-in']);
    expect(screen.getByLabelText<HTMLSelectElement>('Event type').value).toBe('');
    expect(logRequests().map((request) => request.query.toString())).toEqual(['']);
  });

  it('AU-08 Load more fetches the page before the last one’s `next` and appends it', async () => {
    const total = SECURITY_LOG_PAGE_SIZE + 3;
    db.securityEvents = Array.from({ length: total }, (_, i) =>
      makeSecurityEvent({ type: i === 0 ? 'token.created' : 'sign_in', created_at: iso(NOW - (total - i) * MINUTE) }),
    );
    const { user } = renderApp('/security-log');
    expect(await rowsOfLog()).toHaveLength(SECURITY_LOG_PAGE_SIZE);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await rowsOfLog()).toHaveLength(total));
    const rows = await rowsOfLog();
    // The oldest event, last of all, is the next page's.
    expect(rows.at(-1)![1]).toBe('Token created');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    const requests = logRequests();
    expect(requests).toHaveLength(2);
    expect(requests[0]!.query.get('before')).toBeNull();
    const firstPageLast = [...db.securityEvents].sort((a, b) => (a.id < b.id ? 1 : -1))[SECURITY_LOG_PAGE_SIZE - 1]!;
    expect(requests[1]!.query.get('before')).toBe(firstPageLast.id);
  });

  it('AU-08 an empty log says “Nothing here yet.”, and so does a filter nothing matches', async () => {
    const { user } = renderApp('/security-log');
    expect(await screen.findByText('Nothing here yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();

    db.securityEvents = [makeSecurityEvent({ type: 'sign_in' })];
    await user.selectOptions(screen.getByLabelText('Event type'), 'Device sign-in approved');
    expect(await screen.findByText('No “Device sign-in approved” event is in your log.')).toBeTruthy();
    expect(screen.getByText('Nothing here yet.')).toBeTruthy();
  });

  it('AU-08 a log that fails to load says why, and Try again reads it again', async () => {
    let fail = true;
    server.use(
      http.get('/bff/api/security-log', () =>
        fail
          ? HttpResponse.json(
              { error: 'temporarily_unavailable', error_description: 'The service is temporarily unavailable.' },
              { status: 503 },
            )
          : HttpResponse.json({ events: [makeSecurityEvent({ type: 'sign_out' })], next: null }),
      ),
    );
    const { user } = renderApp('/security-log');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load your security log');
    expect(alert.textContent).toContain('The service is temporarily unavailable.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect((await rowsOfLog()).map((cells) => cells[1])).toEqual(['Sign-out']);
  });

  it('AU-08 Security log is in the navigation, after the other pages, and opens the page', async () => {
    const { user } = renderApp('/tokens');
    await screen.findByRole('heading', { level: 1, name: 'API tokens' });
    const nav = screen.getByRole('navigation', { name: 'Portal' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['API clients', 'API tokens', 'Explorer', 'Security log']);
    await user.click(within(nav).getByRole('link', { name: 'Security log' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Security log' })).toBeTruthy();
    expect(await screen.findByText('Nothing here yet.')).toBeTruthy();
    expect(window.location.pathname).toBe('/security-log');
  });
});
