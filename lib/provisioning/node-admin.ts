import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { requireOperator } from "@/lib/access";
import { writeAudit } from "@/lib/audit";
import { type Ctx, fieldMessages, nowOf, parseInput, ValidationError } from "@/lib/core";
import { withTx } from "@/lib/db/client";
import { gpuModels, nodeGpus, nodes, regions } from "@/lib/db/schema";
import { getProvider } from "./providers";

/**
 * Field messages of the operator's node forms (messages/<locale>/admin.json, namespace NodeFieldErrors): the
 * English text is the API's problem detail, the key is what the form shows.
 */
export const NODE_FIELD_MESSAGES = fieldMessages("NodeFieldErrors", {
  nameInvalid: "Use 3 to 63 lowercase letters, digits and dashes",
  nameTaken: "A node with this name already exists: choose another name",
  regionRequired: "Choose a region",
  regionUnknown: "There is no such region",
  regionEngine: "This region's nodes are discovered from its cluster: add them there",
  modelRequired: "Choose a GPU model",
  modelUnknown: "There is no such GPU model",
  gpuCountInvalid: "Enter 1 to 16 GPUs",
  vcpusInvalid: "Enter 1 to 1024 vCPUs",
  ramInvalid: "Enter 1 to 16384 GiB of memory",
  migInvalid: "Enter 0 up to the node's GPU count",
  migUnsupported: "This GPU model has no MIG profiles",
  migIndexInvalid: "Choose GPUs of this node",
  reasonInvalid: "Say why in at most 500 characters",
});
const M = NODE_FIELD_MESSAGES;

const int = (min: number, max: number, msg: string) =>
  z.coerce.number({ error: msg }).int({ error: msg }).min(min, { error: msg }).max(max, { error: msg });

export const addNodeSchema = z
  .object({
    name: z
      .string({ error: M.nameInvalid })
      .trim()
      .regex(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/, { error: M.nameInvalid }),
    regionCode: z.string({ error: M.regionRequired }).trim().min(1, { error: M.regionRequired }),
    gpuModelId: z.string({ error: M.modelRequired }).trim().min(1, { error: M.modelRequired }),
    gpuCount: int(1, 16, M.gpuCountInvalid),
    vcpus: int(1, 1024, M.vcpusInvalid),
    ramGib: int(1, 16384, M.ramInvalid),
    /** The first N GPUs start in MIG mode (carved into 7 slices each). */
    migGpus: z.preprocess((v) => (v === "" || v == null ? 0 : v), int(0, 16, M.migInvalid)),
  })
  .refine((n) => n.migGpus <= n.gpuCount, { path: ["migGpus"], error: M.migInvalid });
export type AddNodeInput = z.input<typeof addNodeSchema>;

/** The operator's reason for a drain or a failure (kept in the audit row and the instances' notice). */
export const nodeActionSchema = z.object({
  reason: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v) || undefined,
    z.string({ error: M.reasonInvalid }).max(500, { error: M.reasonInvalid }).optional(),
  ),
});

export type AddedNode = {
  id: string;
  name: string;
  regionCode: string;
  gpuModelId: string;
  gpuCount: number;
  migGpus: number;
  status: "active";
};

/**
 * Operator: add a node to a region Forja places in (the simulated fleet). A region attached to a cluster
 * engine (Slurm, Kubernetes) discovers its nodes from the cluster, so adding one here is refused. The node,
 * its GPUs and the audit row commit together; a taken name is a field error (as a cohort's) and writes nothing.
 */
export async function addNode(ctx: Ctx, raw: unknown): Promise<AddedNode> {
  requireOperator(ctx);
  const input = parseInput(addNodeSchema, raw);
  if (getProvider(input.regionCode).engine) throw ValidationError.field("regionCode", M.regionEngine);
  return withTx(ctx.tx, async (tx) => {
    const [region] = await tx.select().from(regions).where(eq(regions.code, input.regionCode));
    if (!region) throw ValidationError.field("regionCode", M.regionUnknown);
    const [model] = await tx.select().from(gpuModels).where(eq(gpuModels.id, input.gpuModelId));
    if (!model) throw ValidationError.field("gpuModelId", M.modelUnknown);
    if (input.migGpus > 0 && model.migProfiles.length === 0) {
      throw ValidationError.field("migGpus", M.migUnsupported);
    }
    const [node] = await tx
      .insert(nodes)
      .values({
        name: input.name,
        regionCode: input.regionCode,
        gpuModelId: input.gpuModelId,
        gpuCount: input.gpuCount,
        vcpus: input.vcpus,
        ramGib: input.ramGib,
        status: "active",
      })
      .onConflictDoNothing()
      .returning({ id: nodes.id });
    if (!node) throw ValidationError.field("name", M.nameTaken);
    await tx.insert(nodeGpus).values(
      Array.from({ length: input.gpuCount }, (_, gpuIndex) => ({
        nodeId: node.id,
        gpuIndex,
        migEnabled: gpuIndex < input.migGpus,
      })),
    );
    await writeAudit(tx, ctx.actor, {
      orgId: null,
      action: "node.added",
      targetType: "node",
      targetId: node.id,
      data: {
        name: input.name,
        region: input.regionCode,
        gpuModel: input.gpuModelId,
        gpus: input.gpuCount,
        migGpus: input.migGpus,
      },
      at: nowOf(ctx),
    });
    return {
      id: node.id,
      name: input.name,
      regionCode: input.regionCode,
      gpuModelId: input.gpuModelId,
      gpuCount: input.gpuCount,
      migGpus: input.migGpus,
      status: "active",
    };
  });
}
