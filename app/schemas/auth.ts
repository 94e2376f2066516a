// Sign-in and sign-up rules: one schema for the browser form (Conform), the page action and the JSON API.
import { z } from "zod";
import { dateTimeSchema, uuidSchema } from "./common";

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

const requiredUsername = z.string({ error: "Username is required" }).trim().min(1, "Username is required");
const requiredPassword = z.string({ error: "Password is required" }).min(1, "Password is required");

export const loginSchema = z.object({
  // No account's name holds U+0000, and PostgreSQL could not even look one up (the sign-in form would answer 500).
  username: requiredUsername.max(200, "Invalid username or password").refine((name) => !name.includes("\u0000"), "Invalid username or password"),
  password: requiredPassword.max(1024, "Invalid username or password"),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const signupSchema = z.object({
  username: requiredUsername
    .min(USERNAME_MIN, `Username must be at least ${USERNAME_MIN} characters`)
    .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
    .regex(/^[A-Za-z0-9._-]+$/, "Username may contain only letters, digits, '.', '_' and '-'"),
  password: requiredPassword.min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
  /** Only for the first administrator signing up from another machine: the token the server printed in its log. */
  setupToken: z.string().trim().max(200, "That setup token is not valid").optional(),
});
export type SignupInput = z.infer<typeof signupSchema>;

/** The sign-up page adds a confirmation, which is never sent to the API. */
export const signupFormSchema = signupSchema.extend({ confirmPassword: z.string({ error: "Passwords don't match" }) }).refine((value) => value.password === value.confirmPassword, {
  path: ["confirmPassword"],
  message: "Passwords don't match",
});

export const userRoleSchema = z.enum(["user", "admin"]);

/** The signed-in user as GET /api/auth/me returns it. */
export const currentUserSchema = z.object({
  id: uuidSchema,
  username: z.string(),
  role: userRoleSchema,
  hasMoondreamApiKey: z.boolean(),
  sharedKeyUsageCount: z.number().int(),
  createdAt: dateTimeSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const INVALID_CREDENTIALS = "Invalid username or password";
export const USERNAME_TAKEN = "That username is already taken.";
