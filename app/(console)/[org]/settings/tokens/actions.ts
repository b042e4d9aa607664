"use server";

import { orgFormAction, say } from "@/app/_kit/org-action";
import type { CreatedToken } from "@/components/api/create-token-form";
import { createApiToken, revokeApiToken } from "@/lib/tenancy";

const opts = { area: "ApiTokenErrors", revalidate: "/settings/tokens" };

export const createTokenAction = orgFormAction<CreatedToken>(
  { ...opts, label: "createApiToken", fields: ["name", "expiresInDays", "scope"] },
  async (ctx, orgSlug, input) => {
    const { token, secret } = await createApiToken(ctx, orgSlug, input);
    return {
      data: { secret, name: token.name },
      message: await say("ApiTokens", "created", { name: token.name }),
    };
  },
);

export const revokeTokenAction = orgFormAction(
  { ...opts, label: "revokeApiToken", fields: ["tokenId"] },
  async (ctx, orgSlug, input) => {
    const { name } = await revokeApiToken(ctx, orgSlug, input);
    return { message: await say("ApiTokens", "revoked", { name }) };
  },
);
