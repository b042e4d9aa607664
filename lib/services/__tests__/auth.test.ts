import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { serviceEvents, services } from "@/lib/db/schema";
import { newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { createService, SERVICE_FIELD_MESSAGES as M, setServiceAuth } from "@/lib/services";
import { hashServiceToken } from "../create";

let region: string;
beforeAll(async () => {
  region = (await newFleet([{ gpus: 1 }])).region;
});

async function tokenService() {
  const o = await newOrg("svc-auth");
  const { service, token } = await createService(o.ctx, o.slug, {
    name: "gated",
    image: "pytorch-2.5-cuda12.4",
    instanceType: "h100.1x",
    region,
  });
  const row = async () => (await getDb().select().from(services).where(eq(services.id, service.id)))[0];
  return { o, service, token, row };
}

describe("services: access mode of an existing service", () => {
  it("goes public (no token kept), back to token (a new one, shown once), and rotates on token again", async () => {
    const { o, service, token, row } = await tokenService();
    expect((await row())?.tokenHash).toBe(hashServiceToken(token as string));

    expect(await setServiceAuth(o.ctx, o.slug, service.id, { auth: "public" })).toEqual({ token: null });
    expect(await row()).toMatchObject({ tokenHash: null, spec: expect.objectContaining({ auth: "public" }) });

    const { token: second } = await setServiceAuth(o.ctx, o.slug, service.id, { auth: "token" });
    expect(second).toMatch(/^fsvc_/);
    expect((await row())?.tokenHash).toBe(hashServiceToken(second as string));
    const { token: third } = await setServiceAuth(o.ctx, o.slug, service.name, { auth: "token" });
    expect(third).not.toBe(second);
    expect((await row())?.tokenHash).toBe(hashServiceToken(third as string));

    const codes = await getDb()
      .select({ code: serviceEvents.code })
      .from(serviceEvents)
      .where(eq(serviceEvents.serviceId, service.id))
      .orderBy(serviceEvents.id);
    expect(codes.map((c) => c.code)).toEqual(["created", "auth_public", "auth_token", "token_rotated"]);
  });

  it("refuses a viewer, another tenant (404 before validating) and a bad mode, writing nothing", async () => {
    const { o, service, row } = await tokenService();
    const before = await row();
    const viewer = await o.as("viewer");
    await expect(setServiceAuth(viewer, o.slug, service.id, { auth: "public" })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const stranger = await newOrg("svc-auth-x");
    await expect(
      setServiceAuth(stranger.ctx, o.slug, service.id, { auth: "nonsense" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      setServiceAuth(stranger.ctx, stranger.slug, service.id, { auth: "public" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const bad = await setServiceAuth(o.ctx, o.slug, service.id, { auth: "open" }).catch((e) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).fieldErrors.auth).toEqual([M.authInvalid]);
    expect(await row()).toEqual(before);
  });
});
