/**
 * The build's two kinds of failure. A UserError is a problem with the input or the options,
 * told as one clear line; anything else is a bug, told with its stack. A StageError says
 * which stage failed and wraps what went wrong as its cause (as Eleventy and Nitro do),
 * instead of gluing properties onto someone else's error.
 */

/** A problem the user can fix (a file, table, value or option): one line, no stack trace. */
export class UserError extends Error {
  override name = 'UserError';
}

export class StageError extends Error {
  override name = 'StageError';

  /** `sitePublished`: the failure came after the new site was swapped in, so it is live. */
  constructor(readonly stage: string, cause: unknown, readonly sitePublished = false) {
    super(`${stage} stage: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** What the user reads about a failure: a user error's message, else the bug's stack. */
function explain(error: unknown): string {
  const cause = error instanceof StageError ? error.cause : error;
  if (cause instanceof UserError) return cause.message;
  return cause instanceof Error ? cause.stack ?? cause.message : String(cause);
}

/**
 * The lines a CLI prints when `what` (a build, a mirror) fails on folder `out`: the cause, and
 * what became of the site once a stage ran (a refused option touched nothing, so says nothing).
 */
export function failureLines(what: string, error: unknown, out: string): string {
  if (!(error instanceof StageError)) return `${what} failed: ${explain(error)}`;
  const outcome = error.sitePublished ? `${out} holds the new site, published before the failure.` : `${out} was left as it was.`;
  return `${what} failed (${error.stage} stage): ${explain(error)}\n${outcome}`;
}
