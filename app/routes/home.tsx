// / : the landing page (the full marketing site arrives with the public-site work).
import { brand } from "../lib/brand";
import { ButtonLink } from "../components/ui/button";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [
  { title: `${brand.productName}: ${brand.tagline}` },
  { name: "description", content: "Connect a camera, detect anything with vision AI in real time, and automate what happens next." },
];

export default function Home() {
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col items-center justify-center gap-6 px-6 text-center">
      <p className="text-sm font-semibold uppercase tracking-widest text-brand-400">AI-Powered Camera Intelligence</p>
      <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">
        {brand.productName}: {brand.tagline}
      </h1>
      <p className="text-lg text-slate-300">
        Plug in a camera, describe what to look for, and let vision AI caption, count and capture for you.
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <ButtonLink to="/signup">Start Testing Your Vision System</ButtonLink>
        <ButtonLink to="/login" variant="secondary">
          Sign In
        </ButtonLink>
      </div>
    </main>
  );
}
