// The accounts operations of the catalogue (see ./define.ts).
import { currentUserSchema, loginSchema, signupSchema } from "../auth";
import { defineOperation, noContent } from "./define";

export const accounts = {
  signup: defineOperation({
    method: "post",
    path: "/api/auth/signup",
    summary: "Create an account and sign in (setupToken: only the first administrator signing up from another machine)",
    tag: "Accounts",
    access: "public",
    body: signupSchema,
    success: { status: 201, schema: currentUserSchema },
    errors: [400, 403, 409, 415, 429],
  }),
  login: defineOperation({
    method: "post",
    path: "/api/auth/login",
    summary: "Sign in (sets the session cookie)",
    tag: "Accounts",
    access: "public",
    body: loginSchema,
    success: { status: 200, schema: currentUserSchema },
    errors: [400, 401, 415, 429],
  }),
  logout: defineOperation({ method: "post", path: "/api/auth/logout", summary: "Sign out (deletes the session)", tag: "Accounts", access: "public", success: noContent }),
  me: defineOperation({ method: "get", path: "/api/auth/me", summary: "The signed-in user", tag: "Accounts", access: "user", success: { status: 200, schema: currentUserSchema } }),
  deleteMe: defineOperation({ method: "delete", path: "/api/auth/me", summary: "Delete the account and everything in it", tag: "Accounts", access: "user", success: noContent }),
};
