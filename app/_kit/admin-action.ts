import "server-only";
import { revalidatePath } from "next/cache";
import { requireUserCtx } from "@/lib/auth/session";
import type { ActionResult } from "@/lib/core";
import { formError } from "./form-error";
import { fields, type RawFields, type UserCtx } from "./org-action";

/**
 * The operator's form action (/admin): the signed-in user, the form's named fields as raw input to one lib
 * function (which checks requireOperator and parses), the one form-error adapter, a revalidate. No rule here.
 */
export function adminFormAction<T = undefined>(
  opts: {
    label: string;
    area?: string;
    fields: string[];
    /** A path, or one from the form's fields (a per-organization page). */
    revalidate: string | ((input: RawFields) => string);
  },
  run: (ctx: UserCtx, input: RawFields) => Promise<{ data?: T; message?: string } | undefined>,
): (prev: ActionResult<T> | null, fd: FormData) => Promise<ActionResult<T>> {
  return async (_prev, fd) => {
    const ctx = await requireUserCtx();
    const input = fields(fd, ...opts.fields);
    let out: { data?: T; message?: string } | undefined;
    try {
      out = await run(ctx, input);
    } catch (err) {
      return formError(err, opts.label, opts.area);
    }
    revalidatePath(typeof opts.revalidate === "string" ? opts.revalidate : opts.revalidate(input));
    const result: ActionResult<T> = { ok: true };
    if (out?.data !== undefined) result.data = out.data;
    if (out?.message !== undefined) result.message = out.message;
    return result;
  };
}
