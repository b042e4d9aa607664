import "server-only";
/**
 * Email + password sign-in inside a server action, so forms that post to one work before (or without)
 * JavaScript. It is next-auth's own flow, called through its public handler (the `NextAuth(req, res, options)`
 * form): next-auth issues a CSRF token and cookie, then its credentials callback checks them, runs `authorize`
 * and mints the session cookie. We only carry cookies between the two calls and set the ones it issued on this
 * action's response; no session token is made or signed here.
 */
import { cookies, headers } from "next/headers";
import { NextResponse } from "next/server";
import NextAuth from "next-auth";
import { getTranslations } from "next-intl/server";
import { clientAddress } from "@/lib/auth";
import { authOptions } from "@/lib/auth/next-auth";

type Jar = Record<string, string>;
type Answer = { status: number; setCookie: string[]; json?: { url?: string; csrfToken?: string } };

/** One call into next-auth's handler with a plain request and a recording response. */
async function callNextAuth(
  route: string[],
  method: "GET" | "POST",
  reqHeaders: Record<string, string>,
  jar: Jar,
  body?: Record<string, string>,
): Promise<Answer> {
  const answer: Answer = { status: 200, setCookie: [] };
  const stored = new Map<string, unknown>();
  const res = {
    status(code: number) {
      answer.status = code;
      return res;
    },
    setHeader(name: string, value: unknown) {
      stored.set(name.toLowerCase(), value);
      return res;
    },
    getHeader: (name: string) => stored.get(name.toLowerCase()),
    json(value: Answer["json"]) {
      answer.json = value;
    },
    send(value: unknown) {
      if (value && typeof value === "object") answer.json = value as Answer["json"];
    },
    end() {},
  };
  const req = { query: { nextauth: route }, method, headers: reqHeaders, cookies: jar, body };
  await NextAuth(req as never, res as never, authOptions());
  const sc = stored.get("set-cookie");
  answer.setCookie = Array.isArray(sc) ? sc.map(String) : sc ? [String(sc)] : [];
  return answer;
}

/** Set-Cookie lines → cookies set on this action's response (Next parses them, options included). */
function parseSetCookie(lines: string[]) {
  const h = new Headers();
  for (const l of lines) h.append("set-cookie", l);
  return new NextResponse(null, { headers: h }).cookies.getAll();
}

/** The real client address (see lib/auth/client-address), for rate limits in actions. */
export async function actionClientAddress(): Promise<string> {
  return clientAddress((await headers()).get("x-forwarded-for") ?? undefined);
}

/**
 * Sign in: next-auth checks the password and issues the session; its cookies are set on this action's
 * response, so the redirect that follows lands signed in on the same host. Returns null on success, else the
 * message to show, in the user's language.
 */
export async function signInFromAction(email: string, password: string): Promise<string | null> {
  const reqHeaders = Object.fromEntries((await headers()).entries());
  const store = await cookies();
  const jar: Jar = Object.fromEntries(store.getAll().map((c) => [c.name, c.value]));
  const csrf = await callNextAuth(["csrf"], "GET", reqHeaders, jar);
  const issued = parseSetCookie(csrf.setCookie);
  for (const c of issued) jar[c.name] = c.value;
  const cb = await callNextAuth(["callback", "credentials"], "POST", reqHeaders, jar, {
    email,
    password,
    csrfToken: csrf.json?.csrfToken ?? "",
    json: "true",
  });
  issued.push(...parseSetCookie(cb.setCookie));
  for (const c of issued) store.set(c);
  const url = cb.json?.url ?? "";
  const error = url ? new URL(url, "http://forja.invalid").searchParams.get("error") : "unavailable";
  const session = issued.some((c) => c.name.includes("next-auth.session-token") && c.value !== "");
  if (!error && session) return null;
  const t = await getTranslations("Auth");
  const limited = /^rate_limited:(\d+)$/.exec(error ?? "");
  if (limited) return t("rateLimited", { seconds: Number(limited[1]) });
  if (error === "validation") return t("signInIncomplete");
  if (error === "unauthorized" || error === "CredentialsSignin") return t("badCredentials");
  return t("signInUnavailable");
}
