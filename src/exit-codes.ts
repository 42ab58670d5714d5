/**
 * Exit codes, and the failures a command expects. They live below every layer (next to log.ts)
 * so that an error class anywhere, from src/config.ts and src/infra/ up to src/commands/,
 * declares its own code without importing upwards.
 */

/** Exit codes scripts can rely on (README "Exit codes"). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  /** Some objects were reported as failed; the run itself completed. */
  partial: 3,
  /** `sync`: some kinds stopped early (each named with its reason); the others ran to the end. */
  kindStopped: 4,
  unavailable: 69,
  config: 78,
} as const;

/**
 * A failure the operator can act on from its message alone: a command stops with
 * `ledgersync: <message>` on stderr, never a stack, and exits with the code its class declares
 * (src/commands/report-failure.ts).
 */
export abstract class ExpectedFailure extends Error {
  abstract readonly exitCode: number;
}
