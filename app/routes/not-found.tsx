// Unknown URLs: a real 404 page (status 404, crawlers drop it).
import { Link } from "react-router";
import { brand } from "../lib/brand";

export function loader(): never {
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{`Page not found | ${brand.productName}`}</title>
      <meta name="robots" content="noindex" />
      <p className="text-sm font-semibold text-brand-400">404</p>
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-slate-400">The page you were looking for doesn't exist or has moved.</p>
      <Link className="text-brand-400 underline" to="/">
        Go to the home page
      </Link>
    </main>
  );
}

export default NotFound;
