/**
 * When would a request start? A replay of the future from what is known: the GPUs in use now come back at
 * their expected release times (started + max runtime), and the requests ahead in the queue start, in order,
 * at the first time they fit and hold their GPUs for their own max runtime. Pure, so it is cheap to test.
 */
import { fitOnNode, type PAlloc, type PHolder, type PNode, type PRequest } from "./placement";

export type EtaRequest = Omit<PRequest, "endIfStartedNow"> & { runtimeMs: number | null };

type Release = { at: number; nodeId: string; alloc: PAlloc[] };

/** Start time (ms) of `target` after `ahead`, or null when something it waits for has no known end. */
export function replayStart(input: {
  nodes: PNode[];
  holders: PHolder[];
  ahead: EtaRequest[];
  target: EtaRequest;
  now: number;
}): number | null {
  const nodes = input.nodes.filter((n) => n.modelId === input.target.modelId);
  if (nodes.length === 0) return null;
  const use = new Map<string, number>();
  for (const n of nodes) for (const g of n.gpus) use.set(g.id, g.used);
  const ids = new Set(nodes.map((n) => n.id));
  let releases: Release[] = input.holders
    .filter((h) => ids.has(h.nodeId) && h.releaseAt !== null)
    .map((h) => ({ at: h.releaseAt as number, nodeId: h.nodeId, alloc: h.alloc }));
  let t = input.now;

  const applyUntil = (time: number) => {
    const due = releases.filter((r) => r.at <= time);
    releases = releases.filter((r) => r.at > time);
    for (const r of due) for (const a of r.alloc) use.set(a.gpuId, (use.get(a.gpuId) ?? 0) - a.slices);
  };
  /** Starts req at the first time ≥ t it fits; returns that time, or null if it never does. */
  const startNext = (req: EtaRequest): number | null => {
    for (;;) {
      applyUntil(t);
      for (const node of nodes) {
        const alloc = fitOnNode(node, use, { ...req, endIfStartedNow: null });
        if (!alloc) continue;
        for (const a of alloc) use.set(a.gpuId, (use.get(a.gpuId) ?? 0) + a.slices);
        if (req.runtimeMs !== null) releases.push({ at: t + req.runtimeMs, nodeId: node.id, alloc });
        return t;
      }
      const next = releases.reduce((m, r) => Math.min(m, r.at), Number.POSITIVE_INFINITY);
      if (!Number.isFinite(next)) return null;
      t = next;
    }
  };
  for (const req of input.ahead) {
    // Strict first come first served from here on: a request ahead that never starts blocks the replay.
    if (startNext(req) === null) return null;
  }
  return startNext(input.target);
}
