import { describe, expect, it } from 'vitest';
import { accountRoute } from './account.ts';
import { FRAME_PAGES, matchPage, PORTAL_PAGES } from './pages.ts';

describe('the page table', () => {
  it('matches a page by its path, one trailing slash allowed, with its parameters', () => {
    expect(matchPage('/')).toEqual({ name: 'home', params: {} });
    expect(matchPage('/clients')).toEqual({ name: 'clients', params: {} });
    expect(matchPage('/clients/')).toEqual({ name: 'clients', params: {} });
    expect(matchPage('/clients/lkc_A-b9/')).toEqual({ name: 'client', params: { id: 'lkc_A-b9' } });
    expect(matchPage('/signed-out')).toEqual({ name: 'signedOut', params: {} });
  });

  it('matches no path that is no page, and no parameter that is not an id', () => {
    const long = 'a'.repeat(65);
    for (const path of [
      '',
      '/Clients',
      '/clients//',
      '/tokens/extra',
      '/clients/a%2Fb',
      '/clients/<x>',
      `/clients/${long}`,
    ]) {
      expect(matchPage(path), path).toBeUndefined();
    }
  });

  it('every page of the signed-in frame preloads account routes it can GET, their ids its own', () => {
    expect(FRAME_PAGES.map(({ name }) => name)).toEqual(['clients', 'client', 'tokens', 'explorer', 'securityLog']);
    for (const page of FRAME_PAGES) {
      for (const path of page.preloads) {
        expect(accountRoute(path).answers, path).toHaveProperty('GET');
        if (path.includes(':id')) expect(page.path, path).toContain(':id');
      }
    }
    expect(Object.keys(PORTAL_PAGES)).toEqual(['home', 'signedOut', ...FRAME_PAGES.map(({ name }) => name)]);
  });
});
