import { describe, expect, it } from "vitest";
import { scalingFromForm, specFromForm } from "@/components/services/service-form-data";
import { SERVICE_FIELD_MESSAGES as M } from "@/lib/services/field-messages";
import { scalingUpdateSchema, serviceSpecSchema } from "@/lib/services/schemas";

function form(values: Record<string, string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) fd.append(k, v);
  return fd;
}

const base = { name: "chat", image: "img", instanceType: "h100.1x", region: "r1", onDemandFallback: "on" };

describe("service form fields as the spec's raw input", () => {
  it("parses numbers, leaves empty fields to the schema's defaults and nests the readiness path", () => {
    const raw = specFromForm(
      form({
        ...base,
        port: "9000",
        minReplicas: "1",
        maxReplicas: "",
        target: "2.5",
        "readiness.path": "/ready",
      }),
    );
    expect(raw).toMatchObject({ port: 9000, minReplicas: 1, target: 2.5, onDemandFallback: true });
    expect(raw).not.toHaveProperty("maxReplicas");
    const spec = serviceSpecSchema.parse(raw);
    expect(spec.maxReplicas).toBe(4);
    expect(spec.readiness.path).toBe("/ready");
  });

  it("keeps text that is not a number, so the schema words the refusal at that field", () => {
    const res = serviceSpecSchema.safeParse(specFromForm(form({ ...base, port: "eighty" })));
    expect(res.success).toBe(false);
    expect(res.error?.issues.map((i) => [i.path.join("."), i.message])).toContainEqual(["port", M.portRange]);
  });

  it("refuses a maximum below the minimum at maxReplicas", () => {
    const res = scalingUpdateSchema.safeParse(scalingFromForm(form({ minReplicas: "3", maxReplicas: "2" })));
    expect(res.error?.issues.map((i) => [i.path.join("."), i.message])).toContainEqual([
      "maxReplicas",
      M.maxBelowMin,
    ]);
  });
});
