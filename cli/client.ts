import createClient from "openapi-fetch";
import type { paths } from "./api/openapi";
import { type Credentials, loadCredentials } from "./config";
import { CliError, EXIT, type Problem, problemError } from "./errors";
import { currentLang, t } from "./messages";

export type Api = ReturnType<typeof createClient<paths>>;
export type Session = { api: Api; org: string; creds: Credentials };

export function apiFor(creds: Credentials): Api {
  return createClient<paths>({
    baseUrl: `${creds.url}/api/v1`,
    headers: {
      authorization: `Bearer ${creds.token}`,
      "user-agent": "forja-cli",
      // The API answers field messages in this language too (Content-Language says which it used).
      "accept-language": currentLang(),
    },
  });
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/** The body of a successful call, or a CliError carrying the problem (title, fields, exit code). */
export async function ok<T>(call: Promise<Result<T>>): Promise<T> {
  let r: Result<T>;
  try {
    r = await call;
  } catch (err) {
    throw new CliError(t("unreachable", { why: (err as Error).message }), EXIT.error);
  }
  if (r.error !== undefined || !r.response.ok) {
    const problem = (typeof r.error === "object" && r.error ? r.error : {}) as Problem;
    throw problemError(r.response.status, problem);
  }
  return r.data as T;
}

/** Credentials, a client and the organization: --org, FORJA_ORG, the stored one, else the token's only one. */
export async function session(orgFlag?: string): Promise<Session> {
  const creds = loadCredentials();
  const api = apiFor(creds);
  let org = orgFlag || creds.org;
  if (!org) {
    const me = await ok(api.GET("/me"));
    if (me.organizations.length !== 1) {
      throw new CliError(t("nameOrg"), EXIT.usage);
    }
    org = me.organizations[0]?.slug as string;
  }
  return { api, org, creds };
}

/** Every item of a cursor-paged list: `page(cursor)` asks for one page (limit 100), until `next` is null. */
export async function everyPage<T>(
  page: (cursor: string | undefined) => Promise<Result<{ items: T[]; next?: string | null }>>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const got = await ok(page(cursor));
    items.push(...got.items);
    cursor = got.next ?? undefined;
  } while (cursor);
  return items;
}
