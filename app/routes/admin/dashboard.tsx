// /admin: users and feature requests, server-rendered and paginated, and the deployment's local detector. Admins only.
import { format } from "date-fns";
import { Link, useNavigation } from "react-router";
import { db } from "#db/index";
import { listFeatureRequests, listUsers } from "#server/admin/service";
import { getLocalDetector, listDetectorModels } from "#server/local-detector/service";
import { requireAdminPage } from "#server/accounts/sessions";
import { parseInput } from "#server/http/api";
import { LocalDetectorTab } from "../../components/admin/local-detector-tab";
import { ButtonLink } from "../../components/ui/button";
import { brand } from "../../lib/brand";
import { pageQuerySchema } from "../../schemas/admin";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: `Admin | ${brand.productName}` }, { name: "robots", content: "noindex" }];

type Tab = "users" | "requests" | "detector";

const tabOf = (value: string | null): Tab => (value === "requests" || value === "detector" ? value : "users");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminPage(request);
  const params = new URL(request.url).searchParams;
  const tab = tabOf(params.get("tab"));
  if (tab === "detector") {
    const [detector, models] = await Promise.all([getLocalDetector(db()), listDetectorModels(db())]);
    return { tab, users: null, requests: null, detector: { current: detector, models } };
  }
  let page = 1;
  try {
    page = parseInput(pageQuerySchema, { page: params.get("page") ?? undefined }).page;
  } catch {
    // a malformed page number shows the first page
  }
  if (tab === "users") return { tab, users: await listUsers(db(), page), requests: null, detector: null };
  return { tab, users: null, requests: await listFeatureRequests(db(), page), detector: null };
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const loadingTab: Tab | null =
    navigation.state === "loading" && navigation.location.pathname === "/admin" ? tabOf(new URLSearchParams(navigation.location.search).get("tab")) : null;
  const tab = loadingTab ?? loaderData.tab;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">Admin Dashboard</h1>
        <ButtonLink to="/studio" variant="secondary">
          Back to Studio
        </ButtonLink>
      </div>
      <nav aria-label="Admin sections" className="mt-6 flex gap-1 border-b border-ink-700">
        <TabLink to="/admin" active={tab === "users"}>
          Users
        </TabLink>
        <TabLink to="/admin?tab=requests" active={tab === "requests"}>
          Feature Requests
        </TabLink>
        <TabLink to="/admin?tab=detector" active={tab === "detector"}>
          Local detector
        </TabLink>
      </nav>
      <section className="mt-6">
        {loadingTab === "users" ? (
          <p className="text-slate-400">Loading users...</p>
        ) : loadingTab === "requests" ? (
          <p className="text-slate-400">Loading feature requests...</p>
        ) : loaderData.users ? (
          <UsersTab page={loaderData.users} />
        ) : loadingTab === "detector" ? (
          <p className="text-slate-400">Loading the local detector...</p>
        ) : loaderData.requests ? (
          <RequestsTab page={loaderData.requests} />
        ) : loaderData.detector ? (
          <LocalDetectorTab detector={loaderData.detector.current} models={loaderData.detector.models} />
        ) : null}
      </section>
    </div>
  );
}

function TabLink({ to, active, children }: { to: string; active: boolean; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      aria-current={active ? "page" : undefined}
      className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${active ? "border-brand-400 text-white" : "border-transparent text-slate-400 hover:text-white"}`}
    >
      {children}
    </Link>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

function UsersTab({ page }: { page: NonNullable<LoaderData["users"]> }) {
  return (
    <div>
      <p className="mb-4 text-sm text-slate-400">
        Total users: <span className="font-semibold text-white">{page.total}</span>
      </p>
      {page.items.length === 0 ? (
        <p className="text-slate-400">No users found</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-ink-700">
          <table className="w-full text-left text-sm">
            <thead className="bg-ink-900 text-slate-400">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">
                  Username
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  API Key
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Webhook
                </th>
                <th scope="col" className="px-4 py-3 font-medium">
                  Created
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-700">
              {page.items.map((user) => (
                <tr key={user.id}>
                  <td className="px-4 py-3 font-medium text-white">
                    {user.username}
                    {user.role === "admin" ? <span className="ml-2 text-xs text-brand-400">admin</span> : null}
                  </td>
                  <td className="px-4 py-3">
                    <Badge tone={user.hasMoondreamApiKey ? "green" : "grey"}>{user.hasMoondreamApiKey ? "Configured" : "Not Set"}</Badge>
                  </td>
                  <td className="px-4 py-3">
                    <Badge tone={!user.hasWebhook ? "grey" : user.webhookEnabled ? "green" : "amber"}>
                      {!user.hasWebhook ? "Not Set" : user.webhookEnabled ? "Enabled" : "Disabled"}
                    </Badge>
                  </td>
                  <td className="px-4 py-3 text-slate-300">{format(new Date(user.createdAt), "MMM d, yyyy")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager tab="users" page={page.page} pageCount={page.pageCount} />
    </div>
  );
}

function RequestsTab({ page }: { page: NonNullable<LoaderData["requests"]> }) {
  return (
    <div>
      <p className="mb-4 text-sm text-slate-400">
        Total requests: <span className="font-semibold text-white">{page.total}</span>
      </p>
      {page.items.length === 0 ? (
        <p className="text-slate-400">No feature requests yet</p>
      ) : (
        <ul className="grid gap-4">
          {page.items.map((request) => (
            <li key={request.id} className="rounded-lg border border-ink-700 bg-ink-900 p-4">
              <h2 className="font-semibold text-white">{request.title}</h2>
              <p className="mt-2 text-sm whitespace-pre-wrap text-slate-300">{request.description}</p>
              <p className="mt-3 text-xs text-slate-400">
                {request.username ?? "Unknown User"} · {format(new Date(request.createdAt), "MMM d, yyyy 'at' h:mm a")}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pager tab="requests" page={page.page} pageCount={page.pageCount} />
    </div>
  );
}

function Pager({ tab, page, pageCount }: { tab: Tab; page: number; pageCount: number }) {
  if (pageCount <= 1) return null;
  const href = (p: number) => `/admin?${tab === "requests" ? "tab=requests&" : ""}page=${p}`;
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
      {page > 1 ? (
        <Link to={href(page - 1)} className="text-brand-400 hover:underline">
          Previous
        </Link>
      ) : null}
      <span className="text-slate-400">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} className="text-brand-400 hover:underline">
          Next
        </Link>
      ) : null}
    </nav>
  );
}

function Badge({ tone, children }: { tone: "green" | "grey" | "amber"; children: React.ReactNode }) {
  const tones = {
    green: "bg-emerald-900/60 text-emerald-300 ring-emerald-700",
    grey: "bg-ink-800 text-slate-300 ring-ink-700",
    amber: "bg-amber-900/50 text-amber-200 ring-amber-700",
  };
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${tones[tone]}`}>{children}</span>;
}
