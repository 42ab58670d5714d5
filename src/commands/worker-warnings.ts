import type { Config } from '../config.ts';

/** What a worker runs (the command's --no-server, --no-schedules, --no-workers). */
export interface WorkerParts {
  server: boolean;
  schedules: boolean;
  workers: boolean;
}

/** A setting that turns a feature off without an error: logged as a warning when the worker starts. */
export interface DisabledFeature {
  feature: string;
  setting: string;
  message: string;
}

/**
 * Configurations that run, but silently leave a feature off. Nothing here stops the worker:
 * a worker fed by schedules only is a valid set-up, so each is one warning line that names the
 * setting and what to do.
 */
export function disabledFeatures(
  config: Pick<Config, 'WEBHOOK_PUBLIC_URL' | 'WEBHOOK_SECRET'>,
  parts: WorkerParts,
): DisabledFeature[] {
  const out: DisabledFeature[] = [];
  if (parts.server && !config.WEBHOOK_PUBLIC_URL && !config.WEBHOOK_SECRET) {
    out.push({
      feature: 'webhooks',
      setting: 'WEBHOOK_PUBLIC_URL',
      message:
        "WEBHOOK_PUBLIC_URL is not set: no webhook subscription is registered, so the platform sends no events and the sync button and webhook-triggered syncs cannot work (only the schedules sync). Set it to the public URL of this worker's /webhooks route, or set WEBHOOK_SECRET when the subscription is managed elsewhere.",
    });
  }
  if (config.WEBHOOK_PUBLIC_URL && config.WEBHOOK_SECRET) {
    out.push({
      feature: 'webhook registration',
      setting: 'WEBHOOK_PUBLIC_URL',
      message:
        'WEBHOOK_PUBLIC_URL is not registered: WEBHOOK_SECRET is set, so the subscription is taken to be managed outside this worker. Unset WEBHOOK_SECRET to let the worker register the URL itself.',
    });
  } else if (config.WEBHOOK_PUBLIC_URL && !parts.server) {
    out.push({
      feature: 'webhook registration',
      setting: 'WEBHOOK_PUBLIC_URL',
      message:
        'WEBHOOK_PUBLIC_URL is not registered by this process: it runs without its HTTP server (--no-server), so it receives no webhooks. A worker with its server registers it.',
    });
  }
  return out;
}
