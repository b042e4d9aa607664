import "server-only";
import type { Provider } from "@/lib/provisioning";
import { getProvider } from "@/lib/provisioning";

/** The provider the lifecycle runs with in that region (simulated by default); telemetry asks the same one. */
export function defaultProvider(regionCode?: string): Provider {
  return getProvider(regionCode);
}
