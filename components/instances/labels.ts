import type { InstanceRowView } from "@/lib/provisioning";

type T = (key: string, values?: Record<string, string | number>) => string;

/** "H100 × 2", or "H100 · MIG 1g.10gb" for a slice of one GPU. */
export function gpuLabel(
  row: Pick<InstanceRowView, "gpuModelName" | "gpuCount" | "migProfile">,
  t: T,
): string {
  return row.migProfile
    ? t("gpu.mig", { model: row.gpuModelName, profile: row.migProfile })
    : t("gpu.whole", { model: row.gpuModelName, count: row.gpuCount });
}

/** Query-string of the list filters, in a stable order so cache keys and links agree. */
export function filterQuery(f: { project?: string; state?: string; region?: string; page?: number }): string {
  const p = new URLSearchParams();
  if (f.project) p.set("project", f.project);
  if (f.state) p.set("state", f.state);
  if (f.region) p.set("region", f.region);
  if (f.page && f.page > 1) p.set("page", String(f.page));
  return p.toString();
}

export function instancesApi(org: string): string {
  return `/api/v1/orgs/${encodeURIComponent(org)}/instances`;
}

/** Fetch JSON from our route handlers; a problem+json answer becomes an Error carrying its detail. */
export async function fetchJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) {
    const problem = (await res.json().catch(() => null)) as { detail?: string } | null;
    throw new Error(problem?.detail ?? `HTTP ${res.status}`);
  }
  return (await res.json()) as T;
}
