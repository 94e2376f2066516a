// One fault scenario's findings: each injected fault with what was expected and what was observed.
export interface Check {
  injected: string;
  expected: string;
  observed: string;
  ok: boolean;
}

export interface Section {
  title: string;
  checks: Check[];
  /** Acknowledged writes (2xx) found missing or broken afterwards. */
  lost: number;
  notes: string[];
  skipped?: string;
}

export class Findings {
  readonly checks: Check[] = [];
  readonly notes: string[] = [];
  lost = 0;

  check(injected: string, expected: string, observed: string, ok: boolean) {
    this.checks.push({ injected, expected, observed, ok });
  }

  section(title: string, skipped?: string): Section {
    return { title, checks: this.checks, lost: this.lost, notes: this.notes, skipped };
  }
}

/** A problem JSON answer, read once: its status, content type, Retry-After and body. */
export async function readProblem(response: Response) {
  const text = await response.text();
  let body: { status?: number; detail?: string; title?: string; type?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: reported as such
  }
  const isProblem = (response.headers.get("content-type") ?? "").includes("application/problem+json") && typeof body.detail === "string" && body.status === response.status;
  return { status: response.status, isProblem, detail: body.detail ?? text.slice(0, 120), retryAfter: response.headers.get("retry-after") };
}
