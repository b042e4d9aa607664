import { apiHandler, apiJson } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { instanceManifests, instanceManifestsYaml } from "@/lib/provisioning";

/**
 * GET: the Kubernetes objects Forja applies for the instance (admins, owners and platform operators; the notebook
 * token's Secret with its value redacted). JSON by default; `format=yaml` is one multi-document file to download
 * (`kubectl apply -f` reads it). An instance outside a Kubernetes-backed region is a 409 problem.
 */
export const GET = apiHandler<{ org: string; id: string }>(async ({ ctx, params, url }) => {
  const e = await instanceManifests(ctx, params.org, params.id);
  if (url.searchParams.get("format") !== "yaml") return apiJson(e);
  return new Response(await instanceManifestsYaml(e), {
    headers: {
      "content-type": "application/yaml; charset=utf-8",
      "content-disposition": `attachment; filename="forja-${params.id.replace(/[^\w-]/g, "_")}.yaml"`,
      "cache-control": "no-store",
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
