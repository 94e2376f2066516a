// /signup: creates the account, signs in and goes to the studio; works without JavaScript.
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { db } from "#db/index";
import { redirectWithNewSession } from "#server/http/session-redirect";
import { signUp } from "#server/accounts/service";
import { signUpPageSetup } from "#server/accounts/first-admin";
import { getUser } from "#server/accounts/sessions";
import { clientIp, isFromThisMachine } from "#server/http/client-ip";
import { formProblem, readForm } from "#server/http/form";
import { AuthCard, FormError } from "../../components/auth/auth-card";
import { Button } from "../../components/ui/button";
import { FormField } from "../../components/ui/field";
import { toast } from "../../components/ui/toast-store";
import { brand } from "../../lib/brand";
import { PASSWORD_MIN, signupFormSchema } from "../../schemas/auth";
import type { Route } from "./+types/signup";

export const meta: Route.MetaFunction = () => [
  { title: `Create your account | ${brand.productName}` },
  { name: "description", content: `Create a free ${brand.productName} account and start testing vision AI on your camera.` },
];

/** A refused sign-up's Retry-After reaches the page too (a document takes its headers from here, not from the action's data). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  if (await getUser(request)) throw redirect("/studio");
  return signUpPageSetup(db(), isFromThisMachine(request));
}

export async function action({ request }: Route.ActionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: signupFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), status: 400 }, { status: 400 });
  try {
    const { username, password, setupToken } = submission.value;
    const user = await signUp(db(), { username, password, setupToken }, { ip: clientIp(request), fromThisMachine: isFromThisMachine(request) });
    return await redirectWithNewSession(request, user.id, "/studio", {
      title: "Account created!",
      description: `Welcome to ${brand.productName}.`,
      variant: "default",
    });
  } catch (error) {
    return formProblem(error, submission, ["password", "confirmPassword"]);
  }
}

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction?.startsWith("/signup") === true;
  const [form, fields] = useForm({
    id: "signup",
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  useEffect(() => {
    if (actionData && actionData.status !== 400) {
      toast({
        title: "Signup failed",
        description: ("message" in actionData && typeof actionData.message === "string" && actionData.message) || "Failed to create account",
        variant: "destructive",
      });
    }
  }, [actionData]);

  return (
    <AuthCard
      title="Create your account"
      subtitle="Start with 100 free AI calls. No credit card required."
      footer={
        <>
          <p>
            Already have an account?{" "}
            <Link to="/login" className="text-brand-400 hover:underline">
              Sign in
            </Link>
          </p>
          <p>
            By creating an account you agree to the{" "}
            <Link to="/eula" className="text-brand-400 hover:underline">
              End User License Agreement
            </Link>
            .
          </p>
        </>
      }
    >
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormError id={form.errorId} message={form.errors?.[0]} />
        <FormField field={fields.username} aria-required type="text" label="Username" autoComplete="username" />
        <FormField field={fields.password} aria-required type="password" label="Password" autoComplete="new-password" placeholder={`At least ${PASSWORD_MIN} characters`} />
        <FormField field={fields.confirmPassword} aria-required type="password" label="Confirm password" autoComplete="new-password" />
        {loaderData.askForSetupToken ? (
          <div className="space-y-1.5">
            <FormField field={fields.setupToken} type="text" label="Setup token (first administrator only)" autoComplete="off" spellCheck={false} />
            <p className="text-xs text-slate-400">
              This server has no administrator yet. Paste the setup token from its log to become it, or leave this empty for an ordinary account.
            </p>
          </div>
        ) : null}
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Creating account..." : "Create Account"}
        </Button>
      </Form>
    </AuthCard>
  );
}
