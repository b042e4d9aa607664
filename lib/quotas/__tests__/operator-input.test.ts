import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { type Ctx, type Translator, toFormResult, type UserActor, ValidationError } from "@/lib/core";
import { getDb } from "@/lib/db/client";
import { addNode } from "@/lib/provisioning";
import { newFleet, newOrg } from "@/lib/provisioning/__tests__/fixtures";
import { createCohort, setCohortMember, setOrgQuota, setQuotaDefault } from "@/lib/quotas";
import { allCatalogs } from "@/messages";

/**
 * The operators' quota and cohort forms (and the API bodies that share their schemas): an input that is wrong
 * is refused at its field, in English and Spanish, and nothing is written. These are the inputs the audit of
 * issue 8 found unguarded: a blank level was taken as 0, a stale organization or cohort choice came back as a
 * form-level 404, a long cohort description was told "at most 1000". (A taken node name: node-admin.test.ts,
 * in Spanish below.)
 */
const es = createTranslator({ locale: "es", messages: allCatalogs.es }) as unknown as Translator;

async function refusal(p: Promise<unknown>): Promise<ValidationError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return err as ValidationError;
}
/** The field errors as the Spanish form shows them. */
const inSpanish = (err: ValidationError) => {
  const r = toFormResult(err, es, { label: "test" });
  return { fieldErrors: r.ok ? undefined : r.fieldErrors };
};
const count = async (q: ReturnType<typeof sql>) =>
  Number((await getDb().execute<{ n: string }>(q)).rows[0]?.n ?? 0);

async function setup() {
  const fleet = await newFleet([{ gpus: 8 }]);
  const o = await newOrg("opin");
  const op: Ctx = { actor: { ...(o.actor as UserActor), isOperator: true } };
  return { fleet, o, op, k: { gpuModelId: "h100", regionCode: fleet.region } };
}

describe("operator inputs are refused at their field and write nothing", () => {
  it("a blank (or null) nominal or borrowing limit is not taken as 0", async () => {
    const { o, op, k } = await setup();
    const quotaRows = sql`select count(*) as n from quotas where org_id = ${o.org.id}`;
    const blank = await refusal(
      setOrgQuota(op, { ...k, orgId: o.org.id, nominalGpus: "", borrowingLimitGpus: " " }),
    );
    expect(blank.fieldErrors).toEqual({
      nominalGpus: ["Enter a whole number of GPUs, 0 or more"],
      borrowingLimitGpus: ["Enter a whole number of GPUs, 0 or more"],
    });
    expect(inSpanish(blank).fieldErrors?.nominalGpus).toEqual(["Introduce un número entero de GPU, 0 o más"]);
    const nulls = await refusal(
      setOrgQuota(op, { ...k, orgId: o.org.id, nominalGpus: null, borrowingLimitGpus: 0 }),
    );
    expect(Object.keys(nulls.fieldErrors)).toEqual(["nominalGpus"]);
    const defaults = await refusal(setQuotaDefault(op, { ...k, nominalGpus: "", borrowingLimitGpus: "0" }));
    expect(Object.keys(defaults.fieldErrors)).toEqual(["nominalGpus"]);
    expect(await count(quotaRows)).toBe(0);
    expect(
      await count(sql`select count(*) as n from quota_defaults where region_code = ${k.regionCode}`),
    ).toBe(0);
    // The positive control: 0 typed is 0.
    await setOrgQuota(op, { ...k, orgId: o.org.id, nominalGpus: "0", borrowingLimitGpus: "0" });
    expect(await count(quotaRows)).toBe(1);
  });

  it("an organization or cohort that does not exist is a field error, both at once", async () => {
    const { o, op, k } = await setup();
    const gone = randomUUID();
    const quota = await refusal(
      setOrgQuota(op, { ...k, orgId: gone, nominalGpus: 2, borrowingLimitGpus: 0 }),
    );
    expect(quota.fieldErrors).toEqual({ orgId: ["There is no such organization"] });
    expect(inSpanish(quota).fieldErrors).toEqual({ orgId: ["No existe esa organización"] });

    const both = await refusal(setCohortMember(op, { cohortId: randomUUID(), orgId: gone, weight: 1 }));
    expect(both.fieldErrors).toEqual({
      cohortId: ["There is no such cohort"],
      orgId: ["There is no such organization"],
    });
    expect(inSpanish(both).fieldErrors?.cohortId).toEqual(["No existe esa cohorte"]);
    const cohortOnly = await refusal(
      setCohortMember(op, { cohortId: randomUUID(), orgId: o.org.id, weight: 1 }),
    );
    expect(Object.keys(cohortOnly.fieldErrors)).toEqual(["cohortId"]);
    expect(await count(sql`select count(*) as n from cohort_members where org_id = ${o.org.id}`)).toBe(0);
    expect(
      await count(
        sql`select count(*) as n from audit_log where org_id = ${o.org.id} and action like 'cohort.%'`,
      ),
    ).toBe(0);
  });

  it("a cohort description over 500 characters says 500", async () => {
    const { op } = await setup();
    const name = `Long ${randomUUID().slice(0, 8)}`;
    const err = await refusal(createCohort(op, { name, description: "x".repeat(501) }));
    expect(err.fieldErrors).toEqual({ description: ["At most 500 characters"] });
    expect(inSpanish(err).fieldErrors).toEqual({ description: ["Como máximo 500 caracteres"] });
    expect(await count(sql`select count(*) as n from cohorts where name = ${name}`)).toBe(0);
    await createCohort(op, { name, description: "x".repeat(500) });
    expect(await count(sql`select count(*) as n from cohorts where name = ${name}`)).toBe(1);
  });

  it("the node form's taken name reads in Spanish too", async () => {
    const { fleet, op } = await setup();
    const node = { name: `opin-${randomUUID().slice(0, 8)}`, regionCode: fleet.region, gpuModelId: "h100" };
    const spec = { ...node, gpuCount: 1, vcpus: 8, ramGib: 64 };
    await addNode(op, spec);
    const err = await refusal(addNode(op, { ...spec, gpuCount: 2 }));
    expect(inSpanish(err).fieldErrors).toEqual({ name: ["Ya existe un nodo con este nombre: elige otro"] });
    expect(await count(sql`select count(*) as n from nodes where name = ${node.name}`)).toBe(1);
  });
});
