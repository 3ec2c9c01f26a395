export * from './account.ts';
export * from './admin.ts';
