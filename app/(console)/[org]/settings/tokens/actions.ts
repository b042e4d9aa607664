"use server";

import { revalidatePath } from "next/cache";
import { getLocale, getTranslations } from "next-intl/server";
import type { CreatedToken } from "@/components/api/create-token-form";
import { requireUserCtx } from "@/lib/auth/session";
import type { ActionResult, FieldErrors } from "@/lib/core";
import { API_TOKEN_FIELD_MESSAGES, createApiToken, revokeApiToken } from "@/lib/tenancy";
import { localizedActionError } from "../action-error";

type Prev<T = undefined> = ActionResult<T> | null;

// English field message (lib's text) → its key in ApiTokenFieldErrors.
const FIELD_KEYS = new Map<string, string>(Object.entries(API_TOKEN_FIELD_MESSAGES).map(([k, v]) => [v, k]));

async function tokenActionError(err: unknown, label: string): Promise<ActionResult<never>> {
  const result = await localizedActionError(err, label, "ApiTokenErrors");
  if (result.ok || !result.fieldErrors || (await getLocale()) === "en") return result;
  const t = await getTranslations("ApiTokenFieldErrors");
  const fieldErrors: FieldErrors = Object.fromEntries(
    Object.entries(result.fieldErrors).map(([field, list]) => [
      field,
      list.map((text) => {
        const key = FIELD_KEYS.get(text);
        return key ? t(key) : text;
      }),
    ]),
  );
  return { ...result, fieldErrors };
}

export async function createTokenAction(
  orgSlug: string,
  _prev: Prev<CreatedToken>,
  fd: FormData,
): Promise<ActionResult<CreatedToken>> {
  const ctx = await requireUserCtx();
  let created: CreatedToken;
  try {
    const { token, secret } = await createApiToken(ctx, orgSlug, {
      name: fd.get("name"),
      expiresInDays: fd.get("expiresInDays"),
    });
    created = { secret, name: token.name };
  } catch (err) {
    return tokenActionError(err, "createApiToken");
  }
  revalidatePath(`/${orgSlug}/settings/tokens`);
  const t = await getTranslations("ApiTokens");
  return { ok: true, data: created, message: t("created", { name: created.name }) };
}

export async function revokeTokenAction(orgSlug: string, _prev: Prev, fd: FormData): Promise<ActionResult> {
  const ctx = await requireUserCtx();
  let name: string;
  try {
    ({ name } = await revokeApiToken(ctx, orgSlug, { tokenId: fd.get("tokenId") }));
  } catch (err) {
    return tokenActionError(err, "revokeApiToken");
  }
  revalidatePath(`/${orgSlug}/settings/tokens`);
  return { ok: true, message: (await getTranslations("ApiTokens"))("revoked", { name }) };
}
