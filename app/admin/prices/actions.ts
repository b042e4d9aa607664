"use server";

import { adminFormAction } from "@/app/_kit/admin-action";
import { say } from "@/app/_kit/org-action";
import { cancelPriceChange, schedulePriceChange } from "@/lib/catalog";

const area = "Prices.errors";

export const schedulePriceAction = adminFormAction(
  {
    label: "schedulePrice",
    area,
    revalidate: "/admin/prices",
    fields: ["instanceTypeId", "regionCode", "pricingModel", "usdPerHour", "effectiveFrom"],
  },
  async (ctx, input) => {
    const row = await schedulePriceChange(ctx, input);
    return {
      message: await say("Prices", "scheduled", { type: row.instanceTypeId, region: row.regionCode }),
    };
  },
);

export const cancelPriceAction = adminFormAction<unknown>(
  { label: "cancelPrice", area, revalidate: "/admin/prices", fields: ["priceId"] },
  async (ctx, input) => {
    await cancelPriceChange(ctx, String(input.priceId ?? ""));
    return undefined;
  },
);
