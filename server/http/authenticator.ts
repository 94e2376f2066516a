// remix-auth with the form strategy: the sign-in page's credentials go through the same service as the JSON API.
import { parseWithZod } from "@conform-to/zod/v4";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { loginSchema, type CurrentUser } from "#app/schemas/auth";
import { db } from "#db/index";
import { clientIp } from "./client-ip";
import { ProblemError } from "../errors";
import { signIn } from "../accounts/service";

export const authenticator = new Authenticator<CurrentUser>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const submission = parseWithZod(form, { schema: loginSchema });
    if (submission.status !== "success") throw new ProblemError(400, "Username and password are required");
    return signIn(db(), submission.value, clientIp(request));
  }),
  "form",
);
