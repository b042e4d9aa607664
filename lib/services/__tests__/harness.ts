import { systemCtx } from "@/lib/core";
import { placeQueuedInstances, reconcileInstances } from "@/lib/provisioning";
import { autoscaleServices, createReplicaHost, type Gateway, startGateway } from "@/lib/services";

/**
 * A real deployment of one test region: the gateway (own port), the replica host with its loopback model
 * servers, and the worker's passes (scheduler, reconciler, autoscaler) on a timer, all on the wall clock.
 */
export async function startServicesRuntime(
  region: string,
  opts: { coldStartMs?: number; holdTimeoutMs?: number } = {},
) {
  // Provisioning in a second or less; the model servers' cold start is what the test sets.
  process.env.FORJA_SIM_SPEED = "400";
  const gateway: Gateway = await startGateway({
    holdTimeoutMs: opts.holdTimeoutMs ?? 20_000,
    refreshMs: 150,
  });
  const host = createReplicaHost({
    regionCode: region,
    server: { coldStartMs: opts.coldStartMs ?? 1000, concurrency: 4, baseLatencyMs: 40, perInflightMs: 10 },
  });
  const stopLoops = runLoops([
    [
      300,
      async () => {
        await placeQueuedInstances(systemCtx("scheduler"), { regionCode: region });
        await reconcileInstances(systemCtx("provider"), { regionCode: region });
      },
    ],
    [200, () => host.pass()],
    [1000, () => autoscaleServices(systemCtx("autoscaler"), { regionCode: region })],
  ]);
  return {
    gateway,
    host,
    async stop() {
      await stopLoops();
      await gateway.close();
      await host.close();
    },
  };
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Run each pass every `everyMs` (errors logged, not fatal) until the returned stop is awaited. */
export function runLoops(passes: Array<[everyMs: number, pass: () => Promise<unknown>]>) {
  let stopped = false;
  const running = passes.map(async ([everyMs, fn]) => {
    while (!stopped) {
      const t = Date.now();
      await fn().catch((err) => console.error("[test runtime]", err));
      await new Promise((r) => setTimeout(r, Math.max(0, everyMs - (Date.now() - t))));
    }
  });
  return async () => {
    stopped = true;
    await Promise.all(running);
  };
}
