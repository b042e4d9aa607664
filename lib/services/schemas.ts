import { z } from "zod";
import { DELAY_SECONDS_MAX, SERVICE_FIELD_MESSAGES as M, REPLICAS_MAX, TARGET_MAX } from "./field-messages";

/** A DNS label short enough to prefix replica names ("<service>-r<n>", at most 63). */
export const SERVICE_NAME = /^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$/;

const delay = (fallback: number) =>
  z.int(M.delayRange).min(0, M.delayRange).max(DELAY_SECONDS_MAX, M.delayRange).default(fallback);

/** The scaling settings on their own: editable on a running service, validated the same way. */
export const scalingShape = {
  minReplicas: z.int(M.replicasWhole).min(0, M.replicasWhole).max(REPLICAS_MAX, M.replicasMax).default(0),
  maxReplicas: z.int(M.replicasWhole).min(1, M.maxZero).max(REPLICAS_MAX, M.replicasMax).default(4),
  metric: z.enum(["rps", "concurrency"], { error: M.metricInvalid }).default("concurrency"),
  target: z
    .number({ error: M.targetPositive })
    .gt(0, M.targetPositive)
    .max(TARGET_MAX, M.targetMax)
    .default(4),
  scaleUpDelaySeconds: delay(0),
  scaleDownDelaySeconds: delay(30),
  scaleToZeroGraceSeconds: delay(60),
};

function checkBounds(s: { minReplicas?: number; maxReplicas?: number }, ctx: z.RefinementCtx) {
  if (s.minReplicas != null && s.maxReplicas != null && s.maxReplicas < s.minReplicas) {
    ctx.addIssue({ code: "custom", path: ["maxReplicas"], message: M.maxBelowMin });
  }
}

export const readinessSchema = z
  .object({
    path: z.string().trim().startsWith("/", M.probePath).max(200, M.probePath).default("/health"),
    intervalSeconds: z.int(M.probeInterval).min(1, M.probeInterval).max(60, M.probeInterval).default(2),
    timeoutSeconds: z.int(M.probeTimeout).min(1, M.probeTimeout).max(30, M.probeTimeout).default(1),
  })
  .superRefine((p, ctx) => {
    if (p.timeoutSeconds > p.intervalSeconds) {
      ctx.addIssue({ code: "custom", path: ["timeoutSeconds"], message: M.probeTimeout });
    }
  });

/**
 * The service spec, shared by the form, the API and the library (client-safe). A service is replicas of one
 * model server (image + command listening on `port`), each an instance of `instanceType` in `region`.
 */
export const serviceSpecSchema = z
  .object({
    name: z
      .string({ error: M.nameRequired })
      .trim()
      .min(1, M.nameRequired)
      .regex(SERVICE_NAME, M.namePattern),
    project: z.string().trim().min(1).default("default"),
    image: z.string({ error: M.imageRequired }).trim().min(1, M.imageRequired),
    command: z.string().max(1024, M.commandTooLong).nullish(),
    args: z.array(z.string().max(1024, M.commandTooLong)).max(64).nullish(),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(4096)).nullish(),
    port: z.int(M.portRange).min(1, M.portRange).max(65535, M.portRange).default(8000),
    instanceType: z.string({ error: M.offeringRequired }).trim().min(1, M.offeringRequired),
    region: z.string({ error: M.regionRequired }).trim().min(1, M.regionRequired),
    pricingModel: z.enum(["on_demand", "spot"], { error: M.pricingInvalid }).default("on_demand"),
    /** Spot replicas that cannot be had (not offered, or interrupted) are replaced on-demand. */
    onDemandFallback: z.boolean().default(true),
    ...scalingShape,
    readiness: readinessSchema.default({ path: "/health", intervalSeconds: 2, timeoutSeconds: 1 }),
    auth: z.enum(["token", "public"], { error: M.authInvalid }).default("token"),
  })
  .superRefine(checkBounds);

export type ServiceSpecInput = z.input<typeof serviceSpecSchema>;
export type ServiceSpec = z.output<typeof serviceSpecSchema>;

/** An edit of the scaling settings: any subset; the merged result is checked again (min ≤ max). */
export const scalingUpdateSchema = z
  .object({
    minReplicas: scalingShape.minReplicas.unwrap().optional(),
    maxReplicas: scalingShape.maxReplicas.unwrap().optional(),
    metric: scalingShape.metric.unwrap().optional(),
    target: scalingShape.target.unwrap().optional(),
    scaleUpDelaySeconds: scalingShape.scaleUpDelaySeconds.unwrap().optional(),
    scaleDownDelaySeconds: scalingShape.scaleDownDelaySeconds.unwrap().optional(),
    scaleToZeroGraceSeconds: scalingShape.scaleToZeroGraceSeconds.unwrap().optional(),
  })
  .superRefine(checkBounds);
export type ScalingUpdate = z.output<typeof scalingUpdateSchema>;
export { checkBounds };
