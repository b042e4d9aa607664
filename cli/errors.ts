/**
 * Exit codes scripts can branch on (docs/cli.md): the one place a failure becomes a number.
 * 0 ok · 1 error · 2 usage (bad flags, a bad spec: 422 with field errors) · 3 not found · 4 refused by quota,
 * budget, role or policy · 5 conflict (the resource's state, a reused idempotency key, a lost update).
 */
export const EXIT = { ok: 0, error: 1, usage: 2, notFound: 3, refused: 4, conflict: 5 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An RFC 9457 problem as the API sends it (lib/api/problem.ts). */
export type Problem = {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  reason?: string;
  errors?: Record<string, string[]>;
  requestId?: string;
};

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.error,
    readonly problem?: Problem,
  ) {
    super(message);
  }
}

export function exitCodeFor(status: number, problem: Problem): ExitCode {
  if (status === 404) return EXIT.notFound;
  if (status === 409 || status === 412) return EXIT.conflict;
  if (status === 403) return EXIT.refused;
  // A 422 with field errors is a bad request (usage); without them it is a refusal: quota, budget, residency.
  if (status === 422) return problem.errors ? EXIT.usage : EXIT.refused;
  if (status === 400) return EXIT.usage;
  return EXIT.error;
}

/** The problem's title and detail, then each field's messages: what a person needs to fix it. */
export function problemError(status: number, problem: Problem): CliError {
  const head = [problem.title ?? `HTTP ${status}`, problem.detail].filter(Boolean).join(": ");
  const fields = Object.entries(problem.errors ?? {}).map(([f, msgs]) => `  ${f}: ${msgs.join("; ")}`);
  return new CliError([head, ...fields].join("\n"), exitCodeFor(status, problem), problem);
}
