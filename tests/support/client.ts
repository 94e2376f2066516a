// An HTTP client with a cookie jar, and factories for test users.
import { randomBytes } from "node:crypto";
import { inject } from "vitest";

export function uniqueUsername(prefix = "user"): string {
  return `${prefix}_${randomBytes(5).toString("hex")}`;
}

/** A random address from TEST-NET-3, sent as X-Forwarded-For so throttling tests don't share counters. */
export function uniqueIp(): string {
  const b = randomBytes(2);
  return `203.0.${b[0]}.${b[1]}`;
}

export class Client {
  private cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string = inject("baseUrl"),
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request(method: string, path: string, options: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    let body = options.body;
    if (options.json !== undefined) {
      headers["content-type"] ??= "application/json";
      body = JSON.stringify(options.json);
    }
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (value === "" || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request("GET", path, { headers });
  }

  post(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request("POST", path, { json, headers });
  }

  put(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request("PUT", path, { json, headers });
  }
}

export interface TestUser {
  client: Client;
  username: string;
  password: string;
  id: string;
}

export async function signUpUser(overrides: { username?: string; password?: string; baseUrl?: string } = {}): Promise<TestUser> {
  const username = overrides.username ?? uniqueUsername();
  const password = overrides.password ?? "correct-horse";
  const client = new Client(overrides.baseUrl);
  const response = await client.post("/api/auth/signup", { username, password });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${await response.text()}`);
  const user = (await response.json()) as { id: string };
  return { client, username, password, id: user.id };
}

/** Signs in as the shared database's founding admin. */
export async function signInAdmin(): Promise<Client> {
  const client = new Client();
  const response = await client.post("/api/auth/login", inject("admin"));
  if (response.status !== 200) throw new Error(`admin sign-in failed: ${response.status}`);
  return client;
}
