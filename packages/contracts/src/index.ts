export * from './account.ts';
export * from './admin.ts';
export * from './limits.ts';
export * from './client-urls.ts';
export * from './pages.ts';
export * from './scopes.ts';
export * from './resources.ts';
export * from './security-log.ts';
