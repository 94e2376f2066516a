// RFC 9457 problem details: the one shape every API error leaves the server in.
import { type z } from "zod";
import { ProblemError, type FieldErrors, type ProblemInit } from "../errors";
import { textResponse } from "./response-text";

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  507: "Insufficient Storage",
};

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldErrors;
}

export function problemBody(status: number, detail: string, init: ProblemInit = {}): ProblemBody {
  return {
    type: init.type ?? "about:blank",
    title: init.title ?? TITLES[status] ?? "Error",
    status,
    detail,
    ...(init.errors ? { errors: init.errors } : {}),
  };
}

const PROBLEM_FIELDS: Readonly<Record<string, string>> = { "content-type": "application/problem+json", "cache-control": "no-store" };

export function problem(status: number, detail: string, init: ProblemInit = {}): Response {
  // Without extra headers: the fields as a list, not a Headers object (response-text.ts).
  if (init.headers === undefined) return textResponse(JSON.stringify(problemBody(status, detail, init)), { status, headers: PROBLEM_FIELDS });
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/problem+json");
  headers.set("Cache-Control", "no-store");
  return textResponse(JSON.stringify(problemBody(status, detail, init)), { status, headers });
}

/** A service's ProblemError as the problem JSON response it stands for. */
export function problemResponse(error: ProblemError): Response {
  return problem(error.status, error.message, error.init);
}

/** Zod issues as `{ field: [messages] }`, the `errors` member of a 400 problem. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

export function validationProblem(error: z.ZodError): ProblemError {
  const errors = fieldErrors(error);
  const first = Object.entries(errors)[0];
  const detail = first ? (first[0] === "body" ? first[1][0] : `${first[0]}: ${first[1][0]}`) : "Invalid request";
  return new ProblemError(400, detail ?? "Invalid request", { errors, title: "Invalid request" });
}
