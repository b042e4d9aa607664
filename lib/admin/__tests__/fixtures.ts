import { randomUUID } from "node:crypto";
import type { UserActor } from "@/lib/core";
import type { Executor } from "@/lib/db/client";
import { gpuModels, memberships, nodeGpus, nodes, organizations, regions, users } from "@/lib/db/schema";

export async function makeUser(exec: Executor, opts: { isOperator?: boolean; label?: string } = {}) {
  const email = `${opts.label ?? "u"}-${randomUUID().slice(0, 8)}@example.test`;
  const [u] = await exec
    .insert(users)
    .values({ email, name: opts.label ?? "User", isOperator: opts.isOperator ?? false })
    .returning();
  if (!u) throw new Error("user insert failed");
  const actor: UserActor = { kind: "user", userId: u.id, email: u.email, isOperator: u.isOperator };
  return { user: u, actor, ctx: { actor } };
}

/** An organization without the sign-up path (no password hashing), for listing tests that need many. */
export async function makeOrg(
  exec: Executor,
  name: string,
  members: Array<{ userId: string; role: "owner" | "admin" | "member" | "viewer" }> = [],
  allowedJurisdictions: string[] = [],
) {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${randomUUID().slice(0, 6)}`;
  const [org] = await exec.insert(organizations).values({ name, slug, allowedJurisdictions }).returning();
  if (!org) throw new Error("org insert failed");
  if (members.length) await exec.insert(memberships).values(members.map((m) => ({ ...m, orgId: org.id })));
  return org;
}

export async function makeRegion(exec: Executor, code: string, jurisdiction: string) {
  await exec.insert(regions).values({
    code,
    name: `Region ${code}`,
    city: "City",
    country: jurisdiction === "EU" ? "ES" : "US",
    jurisdiction,
    pue: 1.2,
    gridGco2PerKwh: 100,
  });
}

export async function makeGpuModel(exec: Executor, id: string, name: string) {
  await exec.insert(gpuModels).values({ id, name, vendor: "nvidia", memoryGib: 80 });
}

/** A node with one node_gpus row per GPU; returns the node id and GPU ids in index order. */
export async function makeNode(
  exec: Executor,
  n: { region: string; model: string; gpus: number; status?: "active" | "draining" | "down" },
) {
  const [node] = await exec
    .insert(nodes)
    .values({
      name: `node-${randomUUID().slice(0, 8)}`,
      regionCode: n.region,
      gpuModelId: n.model,
      gpuCount: n.gpus,
      vcpus: 64,
      ramGib: 512,
      status: n.status ?? "active",
    })
    .returning();
  if (!node) throw new Error("node insert failed");
  const gpus = await exec
    .insert(nodeGpus)
    .values(Array.from({ length: n.gpus }, (_, i) => ({ nodeId: node.id, gpuIndex: i })))
    .returning({ id: nodeGpus.id });
  return { nodeId: node.id, gpuIds: gpus.map((g) => g.id) };
}
