import { setMaxListeners } from 'node:events';

/**
 * The controller a long-lived client aborts when it is closed, whose signal every waiter of the
 * client listens to: each request in flight chains its deadline to it, each backoff sleep and each
 * acquisition waiting for a rate-limit permit waits on it. `sync all` has a cursor per transaction
 * range, the other kinds and the backlog-end probes waiting at once, far more than the 10
 * listeners past which Node prints a MaxListenersExceededWarning on stderr; the listeners are
 * removed when each wait ends, so the cap guards against no leak here.
 */
export function closingController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
