import { Writable } from "node:stream";
import { Log, type V1Pod } from "@kubernetes/client-node";
import type { LogLine } from "../types";
import { call } from "./client";
import { LABEL } from "./names";
import type { RegionRuntime } from "./runtime";

/** `2026-12-01T19:00:00.123456789Z text` (the log API with timestamps=true) → a line. */
export function parseLogLine(raw: string): LogLine | null {
  const sp = raw.indexOf(" ");
  if (sp < 0) return null;
  const at = new Date(raw.slice(0, sp));
  if (Number.isNaN(at.getTime())) return null;
  return { at, stream: "stdout", text: raw.slice(sp + 1) };
}

/** The instance's current pod (the newest not being deleted), found by label: web processes hold no watch. */
export async function currentPod(rt: RegionRuntime, instanceId: string): Promise<V1Pod | null> {
  const list = await call("list the instance's pod", () =>
    rt.api.listPodForAllNamespaces({ labelSelector: `${LABEL.instance}=${instanceId}` }),
  );
  const pods = list.items.filter((p) => !p.metadata?.deletionTimestamp);
  pods.sort((a, b) =>
    String(b.metadata?.creationTimestamp ?? "").localeCompare(String(a.metadata?.creationTimestamp ?? "")),
  );
  return pods[0] ?? null;
}

/**
 * Tail: the last `limit` lines in (from, to] from the pod log API. The cluster keeps logs only while the pod
 * exists, so a stopped instance (pod deleted) has none — said in docs/providers.md.
 */
export async function tailLogs(
  rt: RegionRuntime,
  instanceId: string,
  from: Date,
  to: Date,
  limit: number,
): Promise<LogLine[]> {
  const pod = await currentPod(rt, instanceId);
  if (!pod?.metadata?.name || !pod.metadata.namespace) return [];
  const { name, namespace } = pod.metadata;
  const text = await call("read the pod's log", () =>
    rt.api.readNamespacedPodLog({
      name,
      namespace,
      container: "workload",
      timestamps: true,
      tailLines: limit,
      // The typed client has no sinceTime; sinceSeconds (rounded up) then the exact filter below.
      sinceSeconds: Math.max(1, Math.ceil((Date.now() - from.getTime()) / 1000) + 1),
    }),
  );
  return String(text ?? "")
    .split("\n")
    .map(parseLogLine)
    .filter((l): l is LogLine => l !== null && l.at > from && l.at <= to)
    .slice(-limit);
}

/** Follow: lines as the workload writes them, until the pod ends or `signal` aborts. */
export async function followLogs(
  rt: RegionRuntime,
  instanceId: string,
  onLine: (l: LogLine) => void,
  signal: AbortSignal,
): Promise<void> {
  const pod = await currentPod(rt, instanceId);
  if (!pod?.metadata?.name || !pod.metadata.namespace) return;
  let rest = "";
  const sink = new Writable({
    write(chunk, _enc, done) {
      const parts = (rest + chunk.toString("utf8")).split("\n");
      rest = parts.pop() ?? "";
      for (const p of parts) {
        const l = parseLogLine(p);
        if (l) onLine(l);
      }
      done();
    },
  });
  const ended = new Promise<void>((r) => sink.on("finish", () => r()));
  const ctl = await new Log(rt.kc).log(pod.metadata.namespace, pod.metadata.name, "workload", sink, {
    follow: true,
    timestamps: true,
    // From now on (the client drops tailLines: 0 as falsy); the tail comes from tailLogs.
    sinceTime: new Date().toISOString(),
  });
  signal.addEventListener("abort", () => ctl.abort(), { once: true });
  await Promise.race([
    ended,
    new Promise<void>((r) => signal.addEventListener("abort", () => r(), { once: true })),
  ]);
}
