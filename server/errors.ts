// The errors services throw when a caller breaks a rule, free of HTTP: server/http/problem.ts turns them into problem JSON.

export type FieldErrors = Record<string, string[]>;

export interface ProblemInit {
  title?: string;
  errors?: FieldErrors;
  headers?: HeadersInit;
  type?: string;
}

/** A rule broken by the caller; services throw it, the API layer turns it into problem JSON. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly init: ProblemInit = {},
  ) {
    super(message);
    this.name = "ProblemError";
  }
}

export function notFound(what: string): ProblemError {
  return new ProblemError(404, `${what} not found`);
}
