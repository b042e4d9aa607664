/**
 * Every (resource, verb) the provider calls, core API group. The ClusterRole in
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
};
