import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getFleet,
  getOutboxMessage,
  getPlatformOverview,
  listOutboxMessages,
  listPlatformAuditLog,
  listTenants,
} from "@/lib/admin";
import { ForbiddenError, NotFoundError, type UserActor } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { gpuAllocations, outbox } from "@/lib/db/schema";
import { useOwnDatabase } from "@/lib/notify/__tests__/helpers";
import { makeGpuModel, makeNode, makeOrg, makeRegion, makeUser } from "./fixtures";

// Exact platform-wide counts need a database no other test file writes to.
let dropDb: () => Promise<void>;
let op: { actor: UserActor };
let tenantUser: { actor: UserActor };
const ids: Record<string, string> = {};

beforeAll(async () => {
  dropDb = await useOwnDatabase();
  const db = getDb();
  op = await makeUser(db, { isOperator: true, label: "operator" });
  tenantUser = await makeUser(db, { label: "tenant-owner" });
  const other = await makeUser(db, { label: "member" });
  const acme = await makeOrg(
    db,
    "Acme AI",
    [
      { userId: tenantUser.actor.userId, role: "owner" },
      { userId: other.actor.userId, role: "member" },
    ],
    ["EU"],
  );
  ids.acme = acme.id;
  await makeOrg(db, "Globex 100% Cotton", [{ userId: other.actor.userId, role: "owner" }]);

  await makeRegion(db, "eu-es-mad1", "EU");
  await makeRegion(db, "eu-de-fra1", "EU");
  await makeRegion(db, "us-tx-dal1", "US");
  await makeGpuModel(db, "h100", "NVIDIA H100");
  await makeGpuModel(db, "l40s", "NVIDIA L40S");
  const mad = await makeNode(db, { region: "eu-es-mad1", model: "h100", gpus: 8 });
  await makeNode(db, { region: "eu-es-mad1", model: "h100", gpus: 8, status: "draining" });
  const dal = await makeNode(db, { region: "us-tx-dal1", model: "l40s", gpus: 4, status: "down" });
  const alloc = (nodeId: string, nodeGpuId: string, slices: number, releasedAt: Date | null = null) => ({
    orgId: acme.id,
    instanceId: randomUUID(),
    nodeId,
    nodeGpuId,
    slices,
    releasedAt,
  });
  await db.insert(gpuAllocations).values([
    // Two MIG slices on one GPU count as one allocated GPU.
    alloc(mad.nodeId, mad.gpuIds[0] as string, 1),
    alloc(mad.nodeId, mad.gpuIds[0] as string, 2),
    alloc(mad.nodeId, mad.gpuIds[1] as string, 7),
    alloc(mad.nodeId, mad.gpuIds[2] as string, 7, new Date()), // released: free again
    alloc(dal.nodeId, dal.gpuIds[0] as string, 7),
  ]);

  const mail = (status: "pending" | "sent" | "failed" | "logged", subject: string) => ({
    toAddress: `${status}@example.test`,
    subject,
    textBody: `${subject} text`,
    htmlBody: `<p>${subject}</p>`,
    status,
  });
  const rows = await db
    .insert(outbox)
    .values([
      mail("pending", "P1"),
      mail("failed", "F1"),
      mail("sent", "S1"),
      mail("logged", "L1"),
      mail("logged", "L2"),
    ])
    .returning({ id: outbox.id, subject: outbox.subject });
  for (const r of rows) ids[r.subject] = r.id;
});

afterAll(async () => dropDb());

describe("admin queries refuse anyone but a platform operator", () => {
  it.each([
    ["overview", (c: { actor: UserActor }) => getPlatformOverview(c)],
    ["tenants", (c: { actor: UserActor }) => listTenants(c)],
    ["fleet", (c: { actor: UserActor }) => getFleet(c)],
    ["outbox", (c: { actor: UserActor }) => listOutboxMessages(c)],
    ["outbox message", (c: { actor: UserActor }) => getOutboxMessage(c, ids.P1 as string)],
    ["audit log", (c: { actor: UserActor }) => listPlatformAuditLog(c)],
  ])("%s: a tenant owner gets Forbidden", async (_name, fn) => {
    await expect(fn(tenantUser)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(fn(op)).resolves.toBeTruthy();
  });
});

describe("getPlatformOverview", () => {
  it("counts organizations, users, fleet capacity, allocated GPUs and outbox problems", async () => {
    expect(await getPlatformOverview(op)).toEqual({
      organizations: 2,
      users: 3,
      regions: 3,
      nodes: 3,
      gpusTotal: 20,
      gpusAllocated: 3,
      outboxPending: 1,
      outboxFailed: 1,
    });
  });
});

describe("listTenants", () => {
  it("lists organizations by name with member count, owners and jurisdictions", async () => {
    const { rows, total } = await listTenants(op);
    expect(total).toBe(2);
    expect(rows.map((r) => r.name)).toEqual(["Acme AI", "Globex 100% Cotton"]);
    expect(rows[0]).toMatchObject({
      memberCount: 2,
      ownerEmails: [tenantUser.actor.email],
      allowedJurisdictions: ["EU"],
    });
    expect(rows[1]?.memberCount).toBe(1);
  });

  it("searches by name case-insensitively, with LIKE wildcards taken literally", async () => {
    expect((await listTenants(op, { q: "acme" })).rows.map((r) => r.name)).toEqual(["Acme AI"]);
    expect((await listTenants(op, { q: "100%" })).rows.map((r) => r.name)).toEqual(["Globex 100% Cotton"]);
    expect((await listTenants(op, { q: "%" })).total).toBe(1);
    expect((await listTenants(op, { q: "_" })).total).toBe(0);
  });

  it("pages 25 at a time and treats a nonsense page as the first", async () => {
    const prefix = `Paged ${randomUUID().slice(0, 6)}`;
    for (let i = 0; i < 26; i++) await makeOrg(getDb(), `${prefix} ${String(i).padStart(2, "0")}`);
    const p1 = await listTenants(op, { q: prefix });
    const p2 = await listTenants(op, { q: prefix, page: "2" });
    expect([p1.total, p1.pageCount, p1.rows.length, p2.rows.length]).toEqual([26, 2, 25, 1]);
    expect(p2.rows[0]?.name).toBe(`${prefix} 25`);
    expect((await listTenants(op, { q: prefix, page: "abc" })).page).toBe(1);
  });
});

describe("getFleet", () => {
  it("groups regions by jurisdiction with nodes, statuses and allocated GPUs per model", async () => {
    const fleet = await getFleet(op);
    expect(fleet.map((j) => [j.jurisdiction, j.regions.map((r) => r.code)])).toEqual([
      ["EU", ["eu-de-fra1", "eu-es-mad1"]],
      ["US", ["us-tx-dal1"]],
    ]);
    const [fra, mad] = fleet[0]?.regions ?? [];
    expect(fra).toMatchObject({ gpusTotal: 0, gpusAllocated: 0, models: [] });
    expect(mad?.models).toEqual([
      {
        gpuModelId: "h100",
        gpuModelName: "NVIDIA H100",
        nodes: 2,
        nodesActive: 1,
        nodesDraining: 1,
        nodesDown: 0,
        gpusTotal: 16,
        gpusAllocated: 2,
      },
    ]);
    expect(fleet[1]?.regions[0]?.models[0]).toMatchObject({ nodesDown: 1, gpusTotal: 4, gpusAllocated: 1 });
  });
});

describe("outbox views", () => {
  it("filters by status and counts every status", async () => {
    const all = await listOutboxMessages(op);
    expect(all.total).toBe(5);
    expect(all.counts).toEqual({ pending: 1, sent: 1, failed: 1, logged: 2 });
    const logged = await listOutboxMessages(op, { status: "logged" });
    expect(logged.rows.map((r) => r.subject).sort()).toEqual(["L1", "L2"]);
    expect(logged.total).toBe(2);
    expect((await listOutboxMessages(op, { status: "bogus" })).total).toBe(5);
  });

  it("shows one message's text and HTML parts; an unknown or malformed id is not found", async () => {
    const msg = await getOutboxMessage(op, ids.F1 as string);
    expect(msg).toMatchObject({
      subject: "F1",
      textBody: "F1 text",
      htmlBody: "<p>F1</p>",
      status: "failed",
    });
    await expect(getOutboxMessage(op, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    await expect(getOutboxMessage(op, "not-a-uuid")).rejects.toBeInstanceOf(NotFoundError);
  });
});
