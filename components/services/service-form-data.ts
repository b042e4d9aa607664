/**
 * The service forms' fields as the raw input of lib/services' schemas: numbers parsed where given (an empty
 * field leaves the schema's default; text that is not a number stays text so the schema words the refusal).
 */
const NUMBER_FIELDS = [
  "port",
  "minReplicas",
  "maxReplicas",
  "target",
  "scaleUpDelaySeconds",
  "scaleDownDelaySeconds",
  "scaleToZeroGraceSeconds",
] as const;
export const SCALING_FIELDS = [
  "minReplicas",
  "maxReplicas",
  "metric",
  "target",
  "scaleUpDelaySeconds",
  "scaleDownDelaySeconds",
  "scaleToZeroGraceSeconds",
] as const;
const TEXT_FIELDS = ["name", "project", "image", "command", "instanceType", "region", "pricingModel", "auth"];

function value(fd: FormData, name: string): unknown {
  const v = fd.get(name);
  if (typeof v !== "string" || v.trim() === "") return undefined;
  if ((NUMBER_FIELDS as readonly string[]).includes(name)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : v;
  }
  return v;
}

function pick(fd: FormData, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) {
    const v = value(fd, n);
    if (v !== undefined) out[n] = v;
  }
  return out;
}

export function scalingFromForm(fd: FormData): Record<string, unknown> {
  return pick(fd, SCALING_FIELDS);
}

export function specFromForm(fd: FormData): Record<string, unknown> {
  const out = { ...pick(fd, TEXT_FIELDS), ...pick(fd, ["port"]), ...scalingFromForm(fd) };
  const path = value(fd, "readiness.path");
  if (path !== undefined) out.readiness = { path, intervalSeconds: 2, timeoutSeconds: 1 };
  out.onDemandFallback = fd.get("onDemandFallback") === "on";
  return out;
}
