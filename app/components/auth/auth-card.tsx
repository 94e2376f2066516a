// The frame around the sign-in and sign-up forms.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { brand } from "../../lib/brand";

export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle: string; children: ReactNode; footer: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <Link to="/" className="mb-8 text-xl font-semibold tracking-tight text-white">
        {brand.productName}
      </Link>
      <div className="w-full max-w-sm rounded-xl border border-ink-700 bg-ink-900 p-6 shadow-xl sm:p-8">
        <h1 className="text-2xl font-semibold text-white">{title}</h1>
        <p className="mt-1 text-sm text-slate-400">{subtitle}</p>
        <div className="mt-6">{children}</div>
      </div>
      <div className="mt-6 space-y-2 text-center text-sm text-slate-400">{footer}</div>
    </main>
  );
}

export function FormError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="rounded-md border border-red-800 bg-red-950 px-3 py-2 text-sm text-red-200">
      {message}
    </p>
  );
}
