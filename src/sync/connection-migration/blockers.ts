/**
 * Why a migration cannot go on, for a person: what is wrong and what to do. The four
 * ready-to-migrate preconditions of docs/platform.md G31 and F7 each
 * have their own code and message; the others are this runner's own checks.
 */
export const F7_PRECONDITIONS = [
  'inactive_api_connection',
  'active_connection_exists',
  'not_already_ready',
  'no_migration_in_progress',
] as const;
export type F7Precondition = (typeof F7_PRECONDITIONS)[number];

type BlockerCode =
  | F7Precondition
  | 'migration_in_progress_here'
  | 'outstanding_objects'
  | 'target_missing'
  | 'preload_failed'
  | 'verification_failed'
  | 'ready_refused'
  | 'busy';

export interface Blocker {
  code: BlockerCode;
  /** What is wrong. */
  message: string;
  /** What to do about it. */
  fix: string;
  details?: unknown;
}

export interface ConnectionFacts {
  id: string;
  /** null when the platform gives none (docs/platform.md F37). */
  remote_provider_name: string | null;
  connection_type: string;
  is_active: boolean;
  is_ready_to_migrate: boolean;
}

/** `id ("provider")` for a person; the id alone when the platform gave no provider name (F37). */
export function connectionLabel(c: Pick<ConnectionFacts, 'id' | 'remote_provider_name'>): string {
  return c.remote_provider_name === null ? c.id : `${c.id} ("${c.remote_provider_name}")`;
}

const name = (c: Pick<ConnectionFacts, 'id' | 'remote_provider_name'>) => `connection ${connectionLabel(c)}`;

/** F7 precondition 1: must be an inactive API connection. */
export function notInactiveApi(target: ConnectionFacts): Blocker {
  const what = target.is_active
    ? 'it is the active connection'
    : `it is a ${target.connection_type} connection, not an API one`;
  return {
    code: 'inactive_api_connection',
    message: `The platform marks only an inactive API connection ready to migrate (docs/platform.md F7), and ${name(target)} is not one: ${what}.`,
    fix:
      'Run `npx ledgersync migrate prepare --provider "<name>"` without --target: it creates a new inactive API ' +
      'connection and preloads it (if a migration is open, first `npx ledgersync migrate abandon`).',
  };
}

/** F7 precondition 2: a separate active connection must exist. */
export function noSeparateActive(targetId: string | null): Blocker {
  return {
    code: 'active_connection_exists',
    message:
      'There is no active accounting connection apart from the new one, and the platform marks a connection ready ' +
      'to migrate only while the customer is still on a separate active connection (docs/platform.md F7).' +
      (targetId ? ` New connection: ${targetId}.` : ''),
    fix:
      'Keep (or re-link) the current ERP connection in the platform until the customer switches, then run ' +
      '`npx ledgersync migrate prepare` again. If the customer has already switched, there is nothing left to prepare.',
  };
}

/** F7 precondition 3: not already ready. Met by our own target after a crash, so a note there. */
export function alreadyReady(target: ConnectionFacts): Blocker {
  return {
    code: 'not_already_ready',
    message: `${name(target)} is already marked ready to migrate; the platform refuses a second ready-to-migrate call (docs/platform.md F7).`,
    fix: 'Nothing more to call: the customer can complete the switch under Switch Providers in the platform.',
  };
}

/** F7 precondition 4: no other migration in progress on the platform. */
export function otherMigrationOnPlatform(other: ConnectionFacts): Blocker {
  return {
    code: 'no_migration_in_progress',
    message: `Another migration is in progress: ${name(other)} is already marked ready to migrate, and the platform allows one at a time (docs/platform.md F7).`,
    fix:
      'Have the customer complete that switch under Switch Providers (or ask the platform to cancel it), then run ' +
      `\`npx ledgersync migrate prepare\` again. To prepare that connection instead, pass --target ${other.id}.`,
  };
}

/** Local twin of precondition 4: this worker already has an open migration to another provider. */
export function otherMigrationHere(open: {
  id: string;
  provider: string;
  state: string;
  targetConnectionId: string | null;
}): Blocker {
  return {
    code: 'migration_in_progress_here',
    message:
      `Another migration is in progress: #${open.id} to "${open.provider}" (state ${open.state}` +
      `${open.targetConnectionId ? `, connection ${open.targetConnectionId}` : ''}); one migration at a time.`,
    fix: `Finish it with \`npx ledgersync migrate prepare --provider "${open.provider}"\`, or drop it with \`npx ledgersync migrate abandon\`.`,
  };
}

export function targetMissing(targetId: string): Blocker {
  return {
    code: 'target_missing',
    message: `The new connection ${targetId} is no longer on the platform.`,
    fix: 'Run `npx ledgersync migrate abandon`, then `npx ledgersync migrate prepare --provider "<name>"` to start again.',
  };
}

export function busy(): Blocker {
  return {
    code: 'busy',
    message: 'Another `migrate prepare` is running against this database right now.',
    fix: 'Wait for it to finish, then run `npx ledgersync migrate status`.',
  };
}

/**
 * A ready-to-migrate refusal (409 DEVELOPER_7001, docs/platform.md F7) to its precondition: by
 * additional_info.precondition when the platform names it, else by the message's wording.
 */
export function preconditionOf(info: Record<string, unknown> | null, message: string): F7Precondition | null {
  const named = info?.precondition;
  if (typeof named === 'string' && (F7_PRECONDITIONS as readonly string[]).includes(named)) {
    return named as F7Precondition;
  }
  const text = message.toLowerCase();
  if (text.includes('inactive api')) return 'inactive_api_connection';
  if (text.includes('active connection must exist') || text.includes('separate active')) {
    return 'active_connection_exists';
  }
  if (text.includes('already ready')) return 'not_already_ready';
  if (text.includes('migration is already in progress') || text.includes('other migration')) {
    return 'no_migration_in_progress';
  }
  return null;
}

/**
 * The message for a ready-to-migrate refusal: the precondition's own message (with the other
 * ready connection when it is known), or the platform's words when it names none.
 */
export function refusalBlocker(
  precondition: F7Precondition | null,
  target: ConnectionFacts,
  said: string,
  otherReady?: ConnectionFacts,
): Blocker {
  switch (precondition) {
    case 'inactive_api_connection':
      return notInactiveApi(target);
    case 'active_connection_exists':
      return noSeparateActive(target.id);
    case 'not_already_ready':
      return alreadyReady(target);
    case 'no_migration_in_progress':
      if (otherReady) return otherMigrationOnPlatform(otherReady);
      return {
        code: 'no_migration_in_progress',
        message: `Another migration is in progress on the platform, which allows one at a time (docs/platform.md F7): ${said}`,
        fix:
          'Have the customer complete or cancel the other switch under Switch Providers, then run ' +
          '`npx ledgersync migrate prepare` again.',
      };
    default:
      return {
        code: 'ready_refused',
        message: `The platform refused ready-to-migrate for connection ${target.id}: ${said}`,
        fix: 'Run `npx ledgersync migrate status`, correct what the platform names, and run `migrate prepare` again.',
      };
  }
}

/** One paragraph: the message, then what to do. */
export function describeBlocker(blocker: Blocker): string {
  return `${blocker.message}\nWhat to do: ${blocker.fix}`;
}
