import { getTranslations } from "next-intl/server";
import type { CostGroup } from "@/lib/metering";

/**
 * Group labels in the reader's language where the ledger's key is one of ours (pricing models, the
 * organization-level reservation line); names of projects, GPU models and regions stay as they are.
 */
export async function groupLabeller(group: CostGroup): Promise<(key: string, fallback: string) => string> {
  const tp = await getTranslations("Costs.pricing");
  return (key, fallback) => {
    if (group === "pricing_model" && tp.has(key)) return tp(key);
    if (group === "project" && key === "organization") return tp("organizationWide");
    if (group === "gpu_model" && key === "other") return tp("storageOnly");
    if (group === "service" && key === "none") return tp("notService");
    return fallback;
  };
}
