/**
 * `npm run services`: the services gateway on its own port (FORJA_GATEWAY_PORT, default 3100) and the
 * simulated provider's replica host (the loopback model servers of replicas in simulated regions). Started by
 * scripts/start.ts beside the web server and the worker; one per deployment (docs/adr/0012).
 */
import { closeDb } from "@/lib/db/client";
import { attachConfiguredEngines } from "@/lib/provisioning";
import { createReplicaHost, startGateway } from "@/lib/services";

const port = Number(process.env.FORJA_GATEWAY_PORT ?? 3100);
const gateway = await startGateway({ port, host: process.env.FORJA_GATEWAY_HOST ?? "0.0.0.0" }).catch(
  async (err: NodeJS.ErrnoException) => {
    if (err.code !== "EADDRINUSE") throw err;
    // Another start on this machine got there first (one gateway and replica host per deployment).
    console.log(`[services] port ${port} is in use: this process does not start a gateway.`);
    await closeDb();
    process.exit(0);
  },
);
// Regions on Kubernetes (FORJA_KUBERNETES_CONFIG) must be known here too: their replicas are the cluster's pods
// (probed at their endpoint), and a region taken for a simulated one would get a loopback server of this process.
await attachConfiguredEngines();
const host = createReplicaHost();
let stopping = false;
let passing: Promise<void> | null = null;
const timer = setInterval(() => {
  if (stopping || passing) return;
  passing = host
    .pass()
    .catch((err) => console.error("[services] replica host", err))
    .finally(() => {
      passing = null;
    });
}, 250);
console.log(`[services] gateway on http://localhost:${gateway.port}/<org>/s/<service>/…`);
const stop = async () => {
  stopping = true;
  clearInterval(timer);
  // A pass in flight finishes before the pool closes (it would fail on a closed pool otherwise).
  await passing;
  await gateway.close();
  await host.close();
  await closeDb();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
