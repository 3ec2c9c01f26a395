import { within } from '@testing-library/react';
import type { SessionJson } from '@latchkey/contracts';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { db } from '../../testing/mocks/db.ts';
import { server } from '../../testing/mocks/server.ts';
import { renderApp, screen } from '../../testing/test-utils.tsx';

// GraphiQL needs Monaco and web workers, which happy-dom does not run; the browser tests
// (e2e/) run the real editor. Here: the lazy route, its frame, and what it renders.
vi.mock('../../features/graphiql/components/explorer.tsx', () => ({
  Explorer: ({ userId }: { userId: string }) => <p>GraphiQL editor for {userId}</p>,
}));

describe('Explorer page', () => {
  it('loads the Explorer lazily inside the portal frame', async () => {
    renderApp('/explorer');
    expect(await screen.findByRole('heading', { level: 1, name: 'Explorer' })).toBeTruthy();
    // SO-08: the Explorer is given the signed-in user, whose storage it keeps apart.
    expect(await screen.findByText(`GraphiQL editor for ${db.user.id}`)).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Portal' });
    expect(within(nav).getByRole('link', { name: 'Explorer' }).getAttribute('aria-current')).toBe('page');
  });

  it('AX-05 explains that Tab indents in the editor and names the key that makes Tab move focus', async () => {
    renderApp('/explorer');
    const note = await screen.findByText(/In the editors, Tab indents\./);
    expect(note.textContent).toContain('Press Ctrl+M (Ctrl+Shift+M on macOS) to make Tab move focus');
  });

  it('RS-22 shows the MCP URL the BFF names ({API_URL}/mcp), read-only, with a copy button', async () => {
    const mcpUrl = 'https://api.acme.test/mcp';
    server.use(http.get('/bff/session', () => HttpResponse.json<SessionJson>({ user: db.user, mcpUrl })));
    const { user } = renderApp('/explorer');
    const section = await screen.findByRole('region', { name: 'Connect an MCP client' });
    const field = within(section).getByLabelText<HTMLInputElement>('MCP server URL');
    expect(field.value).toBe(mcpUrl);
    expect(field.readOnly).toBe(true);
    await user.click(within(section).getByRole('button', { name: 'Copy MCP server URL' }));
    expect(await navigator.clipboard.readText()).toBe(mcpUrl);
    // The editor is still there, under it.
    expect(await screen.findByText(`GraphiQL editor for ${db.user.id}`)).toBeTruthy();
  });
});
