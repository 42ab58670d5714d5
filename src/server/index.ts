// The worker's HTTP server: the platform-facing webhook receiver, the operator's pages (status,
// sign-in, metrics, queue dashboard), the consent routes and the health probes. Code outside this
// folder imports it through this file.
export { type ListenFailedError, listenFailure } from './listen-failure.ts';
export { escapeHtml } from './operator/html.ts';
export { niceMax } from './operator/status-charts.ts';
export { migrationSection } from './operator/status-migration.ts';
export { type RunningServer, SERVER_TIMEOUTS, startServer } from './server.ts';
export { keepSubscription } from './webhooks/check-subscription.ts';
export { SUBSCRIBED_EVENTS } from './webhooks/event-actions.ts';
export { ensureSubscription } from './webhooks/register-subscription.ts';
export { webhookSecrets } from './webhooks/webhook-secrets.ts';
