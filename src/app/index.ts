// What a command or the worker needs, built from the configuration: the database, the platform
// client, the ERP's books and the connection. Code outside this folder imports it through this file.
export {
  type AppContext,
  createAppContext,
  endpointFromConfig,
  PlatformBaseUrlError,
  PlatformNotConfiguredError,
  reencryptTokens,
} from './app-context.ts';
export {
  connectionDespiteGrant,
  connectionForStatus,
  NoConnectionError,
  resolveConnection,
} from './connection.ts';
export { consentSettingsFrom, isLoopbackRedirect } from './consent-settings.ts';
export { databaseUnavailableMessage, guardTransactions, isDatabaseUnavailable } from './database.ts';
export { databaseRefusalMessage } from './database-refusal.ts';
export { importPlatformEntities } from './open-books.ts';
export { tokenRefusalMessage } from './platform-refusal.ts';
