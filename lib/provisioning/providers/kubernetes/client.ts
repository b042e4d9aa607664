import { ApiException, CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import type { KubernetesRegionConfig } from "./config";

/** How long one API call may take before the pass gives up on it (it retries on the next pass). */
export const API_TIMEOUT_MS = 10_000;

/** A failed API call, classified: `permanent` ones fail the instance, the rest are retried. */
export class KubeApiError extends Error {
  constructor(
    readonly code: number | "timeout",
    readonly permanent: boolean,
    message: string,
  ) {
    super(message);
    this.name = "KubeApiError";
  }
}

function statusMessage(body: unknown): string {
  try {
    const parsed = typeof body === "string" ? JSON.parse(body) : body;
    return (parsed as { message?: string })?.message ?? String(body);
  } catch {
    return String(body).slice(0, 300);
  }
}

/** The words an instance (and the operator) read for each kind of API failure. */
export function describeApiError(err: unknown, what: string): KubeApiError {
  if (err instanceof KubeApiError) return err;
  if (err instanceof ApiException) {
    const msg = statusMessage(err.body);
    if (err.code === 403) {
      return new KubeApiError(
        403,
        true,
        `The cluster refused Forja's service account to ${what} (403 Forbidden: ${msg}); the operator must grant the Role in docs/providers.md`,
      );
    }
    if (err.code === 422)
      return new KubeApiError(
        422,
        true,
        `The cluster rejected the manifest to ${what} (422 Invalid: ${msg})`,
      );
    if (err.code === 409) return new KubeApiError(409, false, `Conflict to ${what} (409: ${msg})`);
    if (err.code === 404) return new KubeApiError(404, false, `Not found to ${what} (404: ${msg})`);
    return new KubeApiError(
      err.code,
      false,
      `The cluster's API server failed to ${what} (${err.code}: ${msg}); Forja retries`,
    );
  }
  return new KubeApiError(
    0,
    false,
    `The cluster could not be reached to ${what} (${String((err as Error)?.message ?? err)}); Forja retries`,
  );
}

/** One API call with a deadline: a hung API server must not hang the worker's pass. */
export async function call<T>(what: string, fn: () => Promise<T>, timeoutMs = API_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new KubeApiError(
            "timeout",
            false,
            `The cluster's API server did not answer within ${timeoutMs / 1000} s to ${what}; Forja retries`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([fn(), timeout]);
  } catch (err) {
    throw describeApiError(err, what);
  } finally {
    clearTimeout(timer);
  }
}

/** The kubeconfig of a region: its file and context, or the pod's in-cluster service account. */
export function kubeConfigFor(cfg: KubernetesRegionConfig, kubeconfigYaml?: string): KubeConfig {
  const kc = new KubeConfig();
  if (kubeconfigYaml) kc.loadFromString(kubeconfigYaml);
  else if (cfg.kubeconfig) kc.loadFromFile(cfg.kubeconfig);
  else kc.loadFromCluster();
  if (cfg.context) kc.setCurrentContext(cfg.context);
  return kc;
}

export function coreApi(kc: KubeConfig): CoreV1Api {
  return kc.makeApiClient(CoreV1Api);
}
