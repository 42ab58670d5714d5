/**
 * What happens after ready-to-migrate (docs/platform.md G31, last row, and
 * G30): the customer completes the switch in the platform; historical codings are dropped
 * and automations must be recreated.
 */
export function nextSteps(input: {
  provider: string;
  targetId: string;
  backupFile: string | null;
}): string[] {
  return [
    `The customer completes the switch in the platform: Accounting settings → Switch Providers → "${input.provider}", then confirm. Until then the current connection keeps syncing as usual.`,
    `Historical chart-of-accounts codings do not carry over to the new connection${
      input.backupFile
        ? `; the old chart, with every svc_id, is kept in ${input.backupFile} and in chart_backups`
        : ''
    }.`,
    'Recreate automations in the platform after the switch: accounting rules and auto-coding, field-option filter rules, and anything else keyed to the old chart items; they are not migrated.',
    `After the switch the new connection (${input.targetId}) is the active one: unset PLATFORM_CONNECTION_ID, or set it to ${input.targetId}.`,
    'Run `npx ledgersync migrate status` to see the switch recorded.',
  ];
}
