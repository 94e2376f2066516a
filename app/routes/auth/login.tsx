// /login: works as a plain form post and, with JavaScript, validates as you type.
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { authenticator } from "#server/http/authenticator";
import { redirectWithNewSession } from "#server/http/session-redirect";
import { getUser, safeRedirectTarget } from "#server/accounts/sessions";
import { formProblem, readForm } from "#server/http/form";
import { AuthCard, FormError } from "../../components/auth/auth-card";
import { Button } from "../../components/ui/button";
import { FormField } from "../../components/ui/field";
import { toast } from "../../components/ui/toast-store";
import { brand } from "../../lib/brand";
import { INVALID_CREDENTIALS, loginSchema } from "../../schemas/auth";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => [{ title: `Sign in | ${brand.productName}` }, { name: "description", content: `Sign in to the ${brand.productName} studio.` }];

/** A refused sign-in's Retry-After reaches the page too (a document takes its headers from here, not from the action's data). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  if (await getUser(request)) throw redirect(safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo")));
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: loginSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), status: 400 }, { status: 400 });
  try {
    const user = await authenticator.authenticate("form", request);
    return await redirectWithNewSession(request, user.id, safeRedirectTarget(form.get("redirectTo")), {
      title: "Welcome back!",
      description: "You have successfully logged in.",
      variant: "default",
    });
  } catch (error) {
    return formProblem(error, submission, ["password"]);
  }
}

export default function Login({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const pending = navigation.state === "submitting" && navigation.formAction?.startsWith("/login") === true;
  const [form, fields] = useForm({
    id: "login",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const formError = form.errors?.[0];

  useEffect(() => {
    if (actionData && actionData.status !== 400) {
      toast({ title: "Login failed", description: actionData.result.error?.[""]?.[0] ?? INVALID_CREDENTIALS, variant: "destructive" });
    }
  }, [actionData]);

  return (
    <AuthCard
      title="Sign in"
      subtitle={`Welcome back to ${brand.productName}.`}
      footer={
        <>
          <p>
            Don't have an account?{" "}
            <Link to="/signup" className="text-brand-400 hover:underline">
              Sign up
            </Link>
          </p>
          <p>
            <Link to="/eula" className="hover:underline">
              End User License Agreement
            </Link>
          </p>
        </>
      }
    >
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/studio"} />
        <FormError id={form.errorId} message={formError} />
        <FormField field={fields.username} aria-required type="text" label="Username" autoComplete="username" />
        <FormField field={fields.password} aria-required type="password" label="Password" autoComplete="current-password" />
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Signing in..." : "Sign In"}
        </Button>
      </Form>
    </AuthCard>
  );
}
