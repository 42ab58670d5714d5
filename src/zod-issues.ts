import type { z } from 'zod';

/**
 * Zod issues as the short text an error or a failure carries: `path: message` per issue, joined
 * by "; ". Only the path and zod's own message, never the value that failed (it may be a secret
 * or a customer's data). Every boundary that reports a schema failure words it this way, so the
 * messages a bookkeeper or an integrator reads look alike wherever they come from.
 */
export interface IssueTextOptions {
  /** How many issues are named (default 3); the rest are counted ("and 2 more"). */
  limit?: number;
  /** What an issue about the value as a whole is called, where its path is empty (default "(root)"). */
  root?: string;
}

/** One issue as `path: message` (`root: message` for the value as a whole). */
export function issueText(issue: z.core.$ZodIssue, root = '(root)'): string {
  return `${issue.path.map(String).join('.') || root}: ${issue.message}`;
}

/** The issues as lines: the first `limit` as `path: message`, then "and N more" when there are more. */
export function issueLines(issues: readonly z.core.$ZodIssue[], options: IssueTextOptions = {}): string[] {
  const { limit = 3, root } = options;
  const lines = issues.slice(0, limit).map((issue) => issueText(issue, root));
  if (issues.length > limit) lines.push(`and ${issues.length - limit} more`);
  return lines;
}

/** A zod error as one line: `amount: Invalid input; id: Required; and 2 more`. */
export function issuesText(error: z.ZodError, options: IssueTextOptions = {}): string {
  return issueLines(error.issues, options).join('; ');
}
