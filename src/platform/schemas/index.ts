/** Every request and response schema of the svc developer API surface ledgersync uses. */
export * from './accounting.ts';
export * from './auth.ts';
export * from './common.ts';
export * from './entities.ts';
export * from './objects.ts';
export * from './syncs.ts';
export * from './vendors.ts';
export * from './webhooks.ts';
