// One-shot toast messages carried across a redirect in a short-lived cookie (works without JavaScript).
import { createCookie } from "react-router";
import { z } from "zod";
import { config } from "../config";
import { secureCookies } from "../net/secure-cookies";

export const flashToastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  variant: z.enum(["default", "destructive"]).default("default"),
});
export type FlashToast = z.infer<typeof flashToastSchema>;

/** The cookie's name: a request carrying it has a toast to show (server/http/prerendered-pages.ts renders it). */
export const FLASH_COOKIE = "fw_flash";

let cookie: ReturnType<typeof createCookie> | undefined;
function flashCookie() {
  cookie ??= createCookie(FLASH_COOKIE, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60, secrets: [config().sessionSecret] });
  return cookie;
}

export function setFlash(request: Request, toast: FlashToast): Promise<string> {
  return flashCookie().serialize(toast, { secure: secureCookies(request) });
}

/** The pending toast, if any, and the Set-Cookie header that clears it. */
export async function takeFlash(request: Request): Promise<{ toast: FlashToast | null; clear: string | null }> {
  const raw: unknown = await flashCookie().parse(request.headers.get("Cookie"));
  if (!raw) return { toast: null, clear: null };
  const parsed = flashToastSchema.safeParse(raw);
  return { toast: parsed.success ? parsed.data : null, clear: await flashCookie().serialize("", { maxAge: 0, secure: secureCookies(request) }) };
}
