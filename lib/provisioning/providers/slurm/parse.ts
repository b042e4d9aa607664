import type { EngineNode, WorkloadPhase } from "../types";

/** One field separator no Slurm name contains. */
export const SEP = "|";

export type GresEntry = { type: string; count: number };

/** "gpu:h100:8,gpu:a100_1g.10gb:3(S:0)" → [{h100, 8}, {a100_1g.10gb, 3}]; other GRES (shard, mps) are ignored. */
export function parseGres(text: string): GresEntry[] {
  if (!text || text === "(null)") return [];
  const out: GresEntry[] = [];
  for (const part of text.split(/,(?=gpu:|gres:|[a-z]+:)/)) {
    const m = /^(?:gres:)?gpu:([^:(]+):(\d+)/.exec(part.trim()) ?? /^(?:gres:)?gpu:(\d+)/.exec(part.trim());
    if (!m) continue;
    if (m.length === 3) out.push({ type: m[1] as string, count: Number(m[2]) });
    else out.push({ type: "", count: Number(m[1]) });
  }
  return out;
}

export type GpuType = { model: string; migProfile: string | null; slices: number };

/**
 * What a GRES type is in Forja's catalog: `gpuTypes` (the operator's map) first, then the convention that
 * AutoDetect=nvml follows for MIG devices, "<gpu>_<Ng.MMgb>", else the type is the model id itself.
 */
export function gpuTypeOf(type: string, gpuTypes: Record<string, string>): GpuType {
  const mapped = gpuTypes[type];
  if (mapped) {
    const [model, profile] = mapped.split(":");
    return withSlices(model as string, profile ?? null);
  }
  const mig = /^(.+)_(\d+g\.\d+gb)$/.exec(type);
  if (mig) {
    const base = mig[1] as string;
    const model = (gpuTypes[base] ?? base).split(":")[0] as string;
    return withSlices(model, mig[2] as string);
  }
  return withSlices(type, null);
}

function withSlices(model: string, migProfile: string | null): GpuType {
  const slices = migProfile ? Number(/^(\d+)g\./.exec(migProfile)?.[1] ?? 7) : 7;
  return { model, migProfile, slices };
}

/** The GRES type Forja asks for: the operator's map read backwards, else the conventions above. */
export function gresTypeFor(
  model: string,
  migProfile: string | null,
  gpuTypes: Record<string, string>,
): string {
  const want = migProfile ? `${model}:${migProfile}` : model;
  for (const [type, target] of Object.entries(gpuTypes)) if (target === want) return type;
  if (!migProfile) return model;
  const base = Object.entries(gpuTypes).find(([, t]) => t === model)?.[0] ?? model;
  return `${base}_${migProfile}`;
}

/**
 * Physical GPU of each GRES device index on a node: whole GPUs are one each; MIG devices (in the node's GRES
 * order, which is gres.conf's) are packed 7 compute slices to a board.
 */
export function physicalGpuOfDevice(gres: GresEntry[], gpuTypes: Record<string, string>): number[] {
  const out: number[] = [];
  let whole = 0;
  let slices = 0;
  const migBase = () => whole;
  for (const g of gres) {
    const t = gpuTypeOf(g.type, gpuTypes);
    for (let i = 0; i < g.count; i++) {
      if (t.migProfile) {
        out.push(migBase() + Math.floor(slices / 7));
        slices += t.slices;
      } else out.push(whole++);
    }
  }
  return out;
}

/** sinfo state (long form, %T) → Forja's node status. "*" = not responding; "~" = powered down. */
export function nodeStatusOf(state: string): EngineNode["status"] {
  const s = state.toLowerCase();
  if (/drain/.test(s)) return "draining";
  if (/^(down|fail|inval|unknown|not_responding|future|power)/.test(s) || s.endsWith("*") || s.includes("~"))
    return "down";
  return "active";
}

export type SinfoNode = {
  name: string;
  partitions: string[];
  gres: GresEntry[];
  cpus: number;
  memoryMb: number;
  state: string;
  reason: string | null;
  addr: string;
};

export const SINFO_FORMAT = ["%N", "%P", "%G", "%c", "%m", "%T", "%o", "%E"].join(SEP);

/** `sinfo -N -h -o SINFO_FORMAT`: one line per node and partition; merged per node. */
export function parseSinfo(text: string): SinfoNode[] {
  const byName = new Map<string, SinfoNode>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const [name, part, gres, cpus, mem, state, addr, ...reason] = line.split(SEP);
    if (!name) continue;
    const partition = (part ?? "").replace(/\*$/, "");
    const prev = byName.get(name);
    if (prev) {
      if (!prev.partitions.includes(partition)) prev.partitions.push(partition);
      continue;
    }
    const why = reason.join(SEP).trim();
    byName.set(name, {
      name,
      partitions: [partition],
      gres: parseGres(gres ?? ""),
      cpus: Number(cpus) || 0,
      memoryMb: Number(mem) || 0,
      state: state ?? "unknown",
      reason: why === "" || why === "none" ? null : why,
      addr: addr || name,
    });
  }
  return [...byName.values()];
}

export type SqueueJob = {
  id: string;
  name: string;
  state: string;
  reason: string | null;
  node: string | null;
  partition: string;
  priority: number;
  start: Date | null;
};

export const SQUEUE_FORMAT = ["%i", "%j", "%T", "%r", "%N", "%P", "%Q", "%S"].join(SEP);

function slurmTime(s: string | undefined): Date | null {
  if (!s || s === "N/A" || s === "Unknown" || s === "NONE") return null;
  // Slurm prints the controller's local time without a zone; Forja's hosts run in UTC (docs/providers.md).
  const d = new Date(`${s}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** `squeue -h -t all -o SQUEUE_FORMAT`. */
export function parseSqueue(text: string): SqueueJob[] {
  const out: SqueueJob[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const [id, name, state, reason, node, partition, prio, start] = line.split(SEP);
    if (!id) continue;
    out.push({
      id,
      name: name ?? "",
      state: state ?? "UNKNOWN",
      reason: !reason || reason === "None" ? null : reason,
      node: node ? node : null,
      partition: partition ?? "",
      priority: Number(prio) || 0,
      start: slurmTime(start),
    });
  }
  return out;
}

/** Slurm's job state → the lifecycle's phase (docs/providers.md has the table). */
export function phaseOf(state: string): WorkloadPhase {
  const s = state.toUpperCase();
  if (["PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "CONFIGURING", "RESIZING"].includes(s))
    return "pending";
  if (["RUNNING", "COMPLETING", "SUSPENDED", "STOPPED", "SIGNALING", "STAGE_OUT"].includes(s))
    return "running";
  if (s === "COMPLETED") return "completed";
  if (s === "TIMEOUT") return "timeout";
  if (s === "PREEMPTED") return "preempted";
  if (s === "NODE_FAIL") return "node_failed";
  if (s === "CANCELLED" || s === "REVOKED") return "cancelled";
  return "failed"; // FAILED, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, SPECIAL_EXIT
}

/**
 * `scontrol -d -o show job`: per running job, its node and the GRES device indexes it holds there
 * ("GRES=gpu:h100:4(IDX:0-3)", "gpu:a100_1g.10gb:1(IDX:2)").
 */
export function parseJobGresIdx(text: string): Map<string, { node: string; idx: number[] }> {
  const out = new Map<string, { node: string; idx: number[] }>();
  for (const line of text.split("\n")) {
    const id = /(?:^|\s)JobId=(\d+)/.exec(line)?.[1];
    if (!id) continue;
    const m = /(?:^|\s)Nodes=(\S+) CPU_IDs=\S+ Mem=\S+ GRES=(\S*)/.exec(line);
    if (!m) continue;
    const idx: number[] = [];
    for (const g of (m[2] as string).matchAll(/IDX:([0-9,-]+)/g)) idx.push(...expandRange(g[1] as string));
    out.set(id, { node: m[1] as string, idx });
  }
  return out;
}

export function expandRange(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(",")) {
    const [a, b] = part.split("-").map(Number);
    if (a === undefined || Number.isNaN(a)) continue;
    for (let i = a; i <= (b ?? a); i++) out.push(i);
  }
  return out;
}
