/**
 * Placement as a pure function of the fleet's state, so it is easy to reason about and fast to run on 10,000
 * requests. scheduler.ts loads the state under the region lock and writes the decisions.
 *
 * Rules (design.md): per GPU model queue, priority then FIFO; best fit (the node left with the fewest free
 * GPUs, or MIG slices, that still fits); an instance's GPUs on one node; MIG slices only on MIG-mode GPUs and
 * whole GPUs only on the others. When the head of a queue cannot be placed it gets a reservation: the earliest
 * time some node will have room for it, from the known release times of what runs there (started + max
 * runtime; unknown runtime = never). Later requests may start only if they cannot delay the head past that
 * time (EASY backfill): they end before it, or they run elsewhere, or the GPUs they take are not ones the head
 * needs then. Non-spot heads may reclaim spot capacity: the fewest running spot instances on one node whose
 * preemption (after a notice period) makes room, unless room frees up naturally within the notice anyway.
 */
import { SLICES_PER_GPU } from "./states";

export type PGpu = { id: string; mig: boolean; used: number };
export type PNode = { id: string; name: string; modelId: string; gpus: PGpu[] };
export type PAlloc = { gpuId: string; slices: number };
export type PHolder = {
  id: string;
  nodeId: string;
  alloc: PAlloc[];
  /** When its GPUs are expected back (ms); null = unknown (no max runtime). */
  releaseAt: number | null;
  /** A running spot instance the scheduler may preempt. */
  reclaimable: boolean;
  /** In its preemption notice: its GPUs come back at releaseAt. */
  preempting: boolean;
  startedAt: number;
};
export type PRequest = {
  id: string;
  modelId: string;
  gpuCount: number;
  slicesPerGpu: number;
  spot: boolean;
  /** When it would end if started now (ms), or null when it has no max runtime. */
  endIfStartedNow: number | null;
};
export type Placement = { requestId: string; nodeId: string; alloc: PAlloc[] };
export type Reservation = { requestId: string; nodeId: string; at: number };
export type Decisions = { placements: Placement[]; preemptions: string[]; reservations: Reservation[] };

type GpuUse = Map<string, number>;

/** The GPUs `req` would take on a node whose per-GPU use is `use`, or null if it does not fit. */
export function fitOnNode(node: PNode, use: GpuUse, req: PRequest): PAlloc[] | null {
  if (req.slicesPerGpu >= SLICES_PER_GPU) {
    const free = node.gpus.filter((g) => !g.mig && (use.get(g.id) ?? 0) === 0);
    if (free.length < req.gpuCount) return null;
    return free.slice(0, req.gpuCount).map((g) => ({ gpuId: g.id, slices: SLICES_PER_GPU }));
  }
  let best: PGpu | null = null;
  let bestFree = Number.POSITIVE_INFINITY;
  for (const g of node.gpus) {
    if (!g.mig) continue;
    const free = SLICES_PER_GPU - (use.get(g.id) ?? 0);
    if (free >= req.slicesPerGpu && free < bestFree) {
      best = g;
      bestFree = free;
    }
  }
  return best ? [{ gpuId: best.id, slices: req.slicesPerGpu }] : null;
}

/** The use of one node's GPUs only: copying the whole region's map per node would be quadratic. */
function nodeUse(node: PNode, use: GpuUse): GpuUse {
  return new Map(node.gpus.map((g) => [g.id, use.get(g.id) ?? 0]));
}

function addUse(use: GpuUse, alloc: PAlloc[], sign: 1 | -1) {
  for (const a of alloc) use.set(a.gpuId, (use.get(a.gpuId) ?? 0) + sign * a.slices);
}

/**
 * Earliest time `req` fits on `node`, replaying the known releases in time order from the current use.
 * Returns the time and the per-GPU use at that time (with every release up to it applied).
 */
export function earliestFit(
  node: PNode,
  use: GpuUse,
  holders: PHolder[],
  req: PRequest,
  now: number,
): { at: number; useAt: GpuUse } | null {
  const sim = nodeUse(node, use);
  if (fitOnNode(node, sim, req)) return { at: now, useAt: sim };
  const timed = holders
    .filter((h) => h.releaseAt !== null)
    .sort((a, b) => (a.releaseAt as number) - (b.releaseAt as number));
  for (let i = 0; i < timed.length; i++) {
    const at = Math.max(now, timed[i]?.releaseAt as number);
    // Apply every release at the same instant before testing.
    while (i < timed.length && Math.max(now, timed[i]?.releaseAt as number) === at) {
      addUse(sim, (timed[i] as PHolder).alloc, -1);
      i++;
    }
    i--;
    if (fitOnNode(node, sim, req)) return { at, useAt: sim };
  }
  return null;
}

type Shadow = { nodeId: string; at: number; useAt: GpuUse; head: PRequest; node: PNode };

/** Per-node free capacity kept up to date as placements are made, so each request scans numbers only. */
type NodeStats = { freeWhole: number; freeMig: number; maxMigFree: number };

function statsOf(node: PNode, use: GpuUse): NodeStats {
  const s: NodeStats = { freeWhole: 0, freeMig: 0, maxMigFree: 0 };
  for (const g of node.gpus) {
    const u = use.get(g.id) ?? 0;
    if (!g.mig) {
      if (u === 0) s.freeWhole++;
    } else {
      const free = SLICES_PER_GPU - u;
      s.freeMig += free;
      if (free > s.maxMigFree) s.maxMigFree = free;
    }
  }
  return s;
}

function quickFit(s: NodeStats, req: PRequest): number | null {
  if (req.slicesPerGpu >= SLICES_PER_GPU)
    return s.freeWhole >= req.gpuCount ? s.freeWhole - req.gpuCount : null;
  return s.maxMigFree >= req.slicesPerGpu ? s.freeMig - req.slicesPerGpu : null;
}

/** Where `ord` is or would go in a sorted bucket (binary search). */
function lowerBound(list: number[], ord: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as number) < ord) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Sorted insert / delete of a node ordinal in a bucket (buckets stay in name order). */
function bucketInsert(list: number[], ord: number) {
  list.splice(lowerBound(list, ord), 0, ord);
}

function bucketDelete(list: number[], ord: number) {
  const at = lowerBound(list, ord);
  if (list[at] === ord) list.splice(at, 1);
}

function bucketOf(buckets: number[][], k: number): number[] {
  let list = buckets[k];
  if (!list) {
    list = [];
    buckets[k] = list;
  }
  return list;
}

/**
 * One GPU model's nodes bucketed by free whole GPUs and by free MIG slices, each bucket in name order. Best
 * fit minimizes what is left (free − asked), so walking buckets upward from the request's size and each bucket
 * in name order meets candidates in exactly the order the full scan ranks them: the first that passes the
 * checks is the scan's choice, without looking at the thousands of nodes that cannot take it.
 */
class FitIndex {
  private readonly whole: number[][] = [];
  private readonly mig: number[][] = [];
  private readonly at = new Map<number, NodeStats>();

  constructor(
    readonly nodes: PNode[],
    stats: Map<string, NodeStats>,
  ) {
    for (const [ord, n] of nodes.entries()) this.put(ord, stats.get(n.id) as NodeStats);
  }

  private put(ord: number, s: NodeStats) {
    this.at.set(ord, s);
    bucketOf(this.whole, s.freeWhole).push(ord);
    bucketOf(this.mig, s.freeMig).push(ord);
  }

  update(ord: number, s: NodeStats) {
    const old = this.at.get(ord) as NodeStats;
    this.at.set(ord, s);
    if (old.freeWhole !== s.freeWhole) {
      bucketDelete(this.whole[old.freeWhole] ?? [], ord);
      bucketInsert(bucketOf(this.whole, s.freeWhole), ord);
    }
    if (old.freeMig !== s.freeMig) {
      bucketDelete(this.mig[old.freeMig] ?? [], ord);
      bucketInsert(bucketOf(this.mig, s.freeMig), ord);
    }
  }

  /** Candidates in best-fit order (fewest left first, then name) that quickFit accepts. */
  *candidates(req: PRequest): Generator<number> {
    const whole = req.slicesPerGpu >= SLICES_PER_GPU;
    const buckets = whole ? this.whole : this.mig;
    const from = whole ? req.gpuCount : req.slicesPerGpu;
    for (let k = from; k < buckets.length; k++) {
      for (const ord of buckets[k] ?? []) {
        if (whole || (this.at.get(ord) as NodeStats).maxMigFree >= req.slicesPerGpu) yield ord;
      }
    }
  }
}

export type PlanInput = {
  nodes: PNode[];
  holders: PHolder[];
  /** Already in priority/FIFO order per model (the order across models does not matter). */
  queue: PRequest[];
  now: number;
  spotNoticeMs: number;
};
export type PlanOptions = { scan?: "indexed" | "linear" };

/**
 * `scan: "linear"` ranks every node for every request (the reference the index is checked against in tests
 * and the bench); the default walks the FitIndex and makes the same decisions.
 */
export function planPlacements(input: PlanInput, opts: PlanOptions = {}): Decisions {
  const steps = placementSteps(input, opts);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * planPlacements one placement at a time: each is yielded as soon as it is decided (a placement is never
 * taken back), and the decisions are the generator's return value. The scheduler writes the first placements
 * while the rest are planned.
 */
export function* placementSteps(input: PlanInput, opts: PlanOptions = {}): Generator<Placement, Decisions> {
  const { now } = input;
  const use: GpuUse = new Map();
  for (const n of input.nodes) for (const g of n.gpus) use.set(g.id, g.used);
  const stats = new Map(input.nodes.map((n) => [n.id, statsOf(n, use)]));
  const holdersByNode = new Map<string, PHolder[]>();
  for (const h of input.holders) {
    const list = holdersByNode.get(h.nodeId) ?? [];
    list.push(h);
    holdersByNode.set(h.nodeId, list);
  }
  const nodesByModel = new Map<string, PNode[]>();
  for (const n of [...input.nodes].sort((a, b) => a.name.localeCompare(b.name))) {
    const list = nodesByModel.get(n.modelId) ?? [];
    list.push(n);
    nodesByModel.set(n.modelId, list);
  }
  const out: Decisions = { placements: [], preemptions: [], reservations: [] };
  const shadows = new Map<string, Shadow | null>();
  const linear = opts.scan === "linear";
  const indexes = new Map<string, FitIndex>();
  const ordinals = new Map<string, number>();
  for (const [model, list] of nodesByModel) {
    for (const [ord, n] of list.entries()) ordinals.set(n.id, ord);
    if (!linear) indexes.set(model, new FitIndex(list, stats));
  }

  for (const req of input.queue) {
    const nodes = nodesByModel.get(req.modelId) ?? [];
    const shadow = shadows.get(req.modelId);
    // Best fit: the fewest left after placing; nodes are in name order, so ties go to the first name.
    let chosen: { node: PNode; alloc: PAlloc[] } | null = null;
    const index = indexes.get(req.modelId);
    if (index) {
      for (const ord of index.candidates(req)) {
        const node = nodes[ord] as PNode;
        const alloc = fitOnNode(node, use, req);
        if (!alloc || (shadow && !backfillAllowed(shadow, node, alloc, req))) continue;
        chosen = { node, alloc };
        break;
      }
    } else {
      let chosenLeft = Number.POSITIVE_INFINITY;
      for (const node of nodes) {
        const left = quickFit(stats.get(node.id) as NodeStats, req);
        if (left === null || left >= chosenLeft) continue;
        const alloc = fitOnNode(node, use, req);
        if (!alloc || (shadow && !backfillAllowed(shadow, node, alloc, req))) continue;
        chosen = { node, alloc };
        chosenLeft = left;
      }
    }
    if (chosen) {
      addUse(use, chosen.alloc, 1);
      const updated = statsOf(chosen.node, use);
      stats.set(chosen.node.id, updated);
      index?.update(ordinals.get(chosen.node.id) as number, updated);
      const placement = { requestId: req.id, nodeId: chosen.node.id, alloc: chosen.alloc };
      out.placements.push(placement);
      yield placement;
      const holder: PHolder = {
        id: req.id,
        nodeId: chosen.node.id,
        alloc: chosen.alloc,
        releaseAt: req.endIfStartedNow,
        reclaimable: false,
        preempting: false,
        startedAt: now,
      };
      holdersByNode.set(chosen.node.id, [...(holdersByNode.get(chosen.node.id) ?? []), holder]);
      if (shadow && shadow.nodeId === chosen.node.id && (req.endIfStartedNow ?? Infinity) > shadow.at) {
        addUse(shadow.useAt, chosen.alloc, 1);
      }
      continue;
    }
    if (shadow !== undefined) continue;
    // req is the head of its queue: it gets the (only) reservation of this queue, reclaiming spot if needed.
    let reservation = reserve(nodes, use, holdersByNode, req, now);
    if (!req.spot && (!reservation || reservation.at > now + input.spotNoticeMs)) {
      const reclaimed = reclaimSpot(nodes, use, holdersByNode, req);
      if (reclaimed && reclaimed.length > 0) {
        for (const h of reclaimed) {
          h.releaseAt = now + input.spotNoticeMs;
          h.reclaimable = false;
          h.preempting = true;
          out.preemptions.push(h.id);
        }
        reservation = reserve(nodes, use, holdersByNode, req, now);
      }
    }
    shadows.set(req.modelId, reservation);
    if (reservation)
      out.reservations.push({ requestId: req.id, nodeId: reservation.nodeId, at: reservation.at });
  }
  return out;
}

function reserve(
  nodes: PNode[],
  use: GpuUse,
  holdersByNode: Map<string, PHolder[]>,
  req: PRequest,
  now: number,
): Shadow | null {
  let best: Shadow | null = null;
  for (const node of nodes) {
    const fit = earliestFit(node, use, holdersByNode.get(node.id) ?? [], req, now);
    if (fit && (!best || fit.at < best.at))
      best = { nodeId: node.id, at: fit.at, useAt: fit.useAt, head: req, node };
  }
  return best;
}

/** A placement may go ahead while a head waits if it cannot push the head's start past its reservation. */
function backfillAllowed(shadow: Shadow, node: PNode, alloc: PAlloc[], req: PRequest): boolean {
  if (node.id !== shadow.nodeId) return true;
  if (req.endIfStartedNow !== null && req.endIfStartedNow <= shadow.at) return true;
  const after = new Map(shadow.useAt);
  addUse(after, alloc, 1);
  return fitOnNode(shadow.node, after, shadow.head) !== null;
}

function slicesOf(list: PHolder[]): number {
  return list.reduce((s, h) => s + h.alloc.reduce((t, a) => t + a.slices, 0), 0);
}

/**
 * The fewest running spot instances on one node whose preemption makes room for `req`, counting capacity
 * already being reclaimed (instances in their notice period). [] = room is already on its way; null = no
 * node can make room this way.
 */
function reclaimSpot(
  nodes: PNode[],
  use: GpuUse,
  holdersByNode: Map<string, PHolder[]>,
  req: PRequest,
): PHolder[] | null {
  let best: PHolder[] | null = null;
  for (const node of nodes) {
    const holders = holdersByNode.get(node.id) ?? [];
    const sim = nodeUse(node, use);
    for (const h of holders) if (h.preempting) addUse(sim, h.alloc, -1);
    if (fitOnNode(node, sim, req)) return [];
    // Most recently started first: they lose the least work.
    const spot = holders.filter((h) => h.reclaimable).sort((a, b) => b.startedAt - a.startedAt);
    const chosen: PHolder[] = [];
    for (const h of spot) {
      addUse(sim, h.alloc, -1);
      chosen.push(h);
      if (fitOnNode(node, sim, req)) break;
    }
    if (!fitOnNode(node, sim, req)) continue;
    // Put back any that turned out not to be needed, so only as many as needed are preempted.
    for (const h of [...chosen]) {
      addUse(sim, h.alloc, 1);
      if (fitOnNode(node, sim, req)) chosen.splice(chosen.indexOf(h), 1);
      else addUse(sim, h.alloc, -1);
    }
    if (!best || slicesOf(chosen) < slicesOf(best)) best = chosen;
  }
  return best;
}
