/**
 * Every (resource, verb) the provider calls: the core API group, and apps for `deployments` (a service
 * replica is a Deployment, deployments.ts). The ClusterRole in
 * docs/kubernetes/forja-provider-rbac.yaml grants exactly these; a test drives the provider through the API
 * server stand-in, records what it called and compares both. Cluster-wide because namespaces are per
 * organization/project and nodes are cluster-scoped.
 */
export const PROVIDER_PERMISSIONS: Record<string, readonly string[]> = {
  nodes: ["list"],
  namespaces: ["get", "create"],
  pods: ["list", "watch", "create", "delete"],
  "pods/log": ["get"],
  services: ["list", "create", "delete"],
  secrets: ["get", "list", "create", "delete"],
  persistentvolumeclaims: ["list", "create", "delete"],
  deployments: ["list", "create", "delete"],
};

/** The API group of each resource in PROVIDER_PERMISSIONS that is not in the core group. */
export const PERMISSION_GROUPS: Record<string, string> = { deployments: "apps" };
