import type { KubernetesRegionConfig } from "./config";

/** Labels tying a cluster object to Forja; the watch, metrics mapping and garbage collection select on them. */
export const LABEL = {
  managedBy: "app.kubernetes.io/managed-by",
  instance: "forja.dev/instance",
  org: "forja.dev/org",
  project: "forja.dev/project",
  region: "forja.dev/region",
  /** The run (queued-at time) a pod belongs to: a requeued instance gets a new pod, the old one is garbage. */
  run: "forja.dev/run",
  kind: "forja.dev/kind",
} as const;
export const MANAGER = "forja";

export function managedSelector(region: string): string {
  return `${LABEL.managedBy}=${MANAGER},${LABEL.region}=${region}`;
}

/** DNS-1123 label: lowercase alphanumerics and '-', at most 63 characters. */
function dns(s: string, max = 63): string {
  const out = s
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return out.slice(0, max).replace(/-+$/, "") || "x";
}

export function namespaceFor(cfg: KubernetesRegionConfig, orgSlug: string, projectSlug: string): string {
  return dns(cfg.namespacePattern.replaceAll("{org}", orgSlug).replaceAll("{project}", projectSlug));
}

export function runOf(queuedAt: Date | null): string {
  return (queuedAt?.getTime() ?? 0).toString(36);
}

/** Names derive from the instance id (and run), so a restarted worker finds what it created. */
export function objectNames(instanceId: string, run: string) {
  const short = instanceId.replace(/-/g, "").slice(0, 12);
  return {
    pod: `forja-${short}-${run}`,
    service: `forja-${short}`,
    pvc: `forja-${short}-disk`,
    secret: `forja-${short}-token`,
  };
}
