import "server-only";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { z } from "zod";
import { requireUserCtx } from "@/lib/auth/session";
import { type ActionResult, type Ctx, type MessageParams, parseInput, type UserActor } from "@/lib/core";
import { formError } from "./form-error";

/**
 * The server-action kit every mutation uses: resolve the signed-in user (or send them to sign in), run one lib
 * function with the organization's slug (lib checks the role and the tenant), map any error with the one form
 * adapter, revalidate, then redirect or answer. Actions hold no rule of their own.
 */
export type UserCtx = Ctx & { actor: UserActor };
/** What the lib call produced: data for the form, a success message, a page to go to, a path of its own to revalidate. */
// biome-ignore lint/suspicious/noConfusingVoidType: a run that only writes returns nothing (void), the rest say what they produced
export type Outcome<T> = void | { data?: T; message?: string; redirectTo?: string; revalidate?: string };
type Revalidate = string | { path: string; type: "layout" | "page" };

export type ActionOptions = {
  /** Names the action in the log line of an unexpected failure. */
  label: string;
  /** Catalog namespace where the page words its refusals (falls back to `Errors`). */
  area?: string;
  /** What to revalidate after success, relative to the organization (e.g. "/instances"). */
  revalidate?: Revalidate | Revalidate[];
};

/** A form that names its inputs differently from the library's paths re-keys the adapter's field errors. */
type Reshape<A extends unknown[]> = (
  failed: ActionResult<never>,
  ...args: A
) => ActionResult<never> | Promise<ActionResult<never>>;

function revalidateAll(orgSlug: string, spec: ActionOptions["revalidate"]) {
  for (const r of spec === undefined ? [] : Array.isArray(spec) ? spec : [spec]) {
    const { path, type } = typeof r === "string" ? { path: r, type: undefined } : r;
    revalidatePath(`/${orgSlug}${path}`, type);
  }
}

function answer<T>(out: Outcome<T>): ActionResult<T> {
  // redirect() throws, so it is called outside the kit's try.
  if (out?.redirectTo) redirect(out.redirectTo);
  const result: ActionResult<T> = { ok: true };
  if (out?.data !== undefined) result.data = out.data;
  if (out?.message !== undefined) result.message = out.message;
  return result;
}

/** For the pages outside an organization (sign-up, an invitation): no user to resolve, the same error path. */
export function publicAction<A extends unknown[], T = undefined>(
  opts: Omit<ActionOptions, "revalidate">,
  run: (...args: A) => Promise<Outcome<T>>,
): (...args: A) => Promise<ActionResult<T>> {
  return async (...args) => {
    let out: Outcome<T>;
    try {
      out = await run(...args);
    } catch (err) {
      return formError(err, opts.label, opts.area);
    }
    return answer(out);
  };
}

export function orgAction<A extends unknown[], T = undefined>(
  opts: ActionOptions & { reshape?: Reshape<A> },
  run: (ctx: UserCtx, orgSlug: string, ...args: A) => Promise<Outcome<T>>,
): (orgSlug: string, ...args: A) => Promise<ActionResult<T>> {
  return async (orgSlug, ...args) => {
    const ctx = await requireUserCtx();
    let out: Outcome<T>;
    try {
      out = await run(ctx, orgSlug, ...args);
    } catch (err) {
      const failed = await formError(err, opts.label, opts.area);
      return opts.reshape ? opts.reshape(failed, ...args) : failed;
    }
    revalidateAll(
      orgSlug,
      out?.revalidate ? [opts.revalidate ?? [], out.revalidate].flat() : opts.revalidate,
    );
    return answer(out);
  };
}

/** The named form fields as the raw input a lib function (or the shared zod schema) parses. */
export type RawFields = Record<string, FormDataEntryValue | null>;

export function fields(fd: FormData, ...names: string[]): RawFields {
  return Object.fromEntries(names.map((n) => [n, fd.get(n)]));
}

/**
 * A form action (`useActionState`): the form's fields, parsed with the shared zod schema when one is given,
 * go to `run`; otherwise the lib function parses them itself.
 */
export function orgFormAction<T = undefined, S extends z.ZodType = z.ZodType<RawFields>>(
  opts: ActionOptions & { fields: string[]; schema?: S },
  run: (ctx: UserCtx, orgSlug: string, input: z.output<S>) => Promise<Outcome<T>>,
): (orgSlug: string, prev: ActionResult<T> | null, fd: FormData) => Promise<ActionResult<T>> {
  return orgAction(opts, (ctx, orgSlug, _prev: ActionResult<T> | null, fd: FormData) => {
    const raw = fields(fd, ...opts.fields);
    return run(ctx, orgSlug, opts.schema ? parseInput(opts.schema, raw) : (raw as z.output<S>));
  });
}

/** A success message from the catalog in the reader's language. */
export async function say(namespace: string, key: string, values?: MessageParams): Promise<string> {
  const t = (await getTranslations(namespace)) as unknown as (k: string, v?: MessageParams) => string;
  return t(key, values);
}
