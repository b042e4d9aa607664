import "server-only";
import { getTranslations } from "next-intl/server";
import { listGpuModels } from "@/lib/catalog";
import {
  type ActionResult,
  ForbiddenError,
  InvalidStateError,
  NotFoundError,
  QuotaExceededError,
  toActionError,
} from "@/lib/core";

/**
 * toActionError in the user's language. The library's errors carry an English message (also the API's problem
 * detail) and machine-readable details; the rules a person meets here (quota, state, permission) are rebuilt
 * from those details in the catalog so the Spanish console says the same thing.
 */
export async function instanceActionError(err: unknown, label: string): Promise<ActionResult<never>> {
  const result = toActionError(err, label);
  if (result.ok) return result;
  const t = await getTranslations("Instances.errors");
  if (err instanceof QuotaExceededError) {
    const d = err.details as {
      gpuModelId?: string;
      regionCode?: string;
      limitGpus?: number;
      usedGpus?: number;
      requestedGpus?: number;
    };
    const models = await listGpuModels({});
    const gpu = models.find((m) => m.id === d.gpuModelId)?.name ?? d.gpuModelId ?? "";
    return {
      ...result,
      message: t("quotaExceeded", {
        gpu,
        region: d.regionCode ?? "",
        limit: d.limitGpus ?? 0,
        used: d.usedGpus ?? 0,
        requested: d.requestedGpus ?? 0,
      }),
    };
  }
  if (err instanceof InvalidStateError) {
    const from = err.details.from;
    const state =
      typeof from === "string" ? (await getTranslations("Instances.state"))(from as "queued") : "";
    return { ...result, message: t("invalidState", { state }) };
  }
  if (err instanceof NotFoundError) return { ...result, message: t("notFound") };
  if (err instanceof ForbiddenError) return { ...result, message: t("forbidden") };
  return result;
}
