import "server-only";
import { z } from "zod";
import { policySchema } from "@/lib/autoshutdown";
import { budgetSchema } from "@/lib/budgets";
import { launchSpecSchema } from "@/lib/provisioning";
import { serviceSpecSchema } from "@/lib/services";
import { applyExamples } from "./examples";

let cached: Record<string, unknown> | null = null;

/**
 * The launch spec's zod schema as JSON Schema (draft 2020-12), as a client writes it (`io: "input"`: fields
 * with defaults are optional). Cross-field rules (a notebook takes no command) and format checks done in code
 * (cron, time zone) are not expressible here; the API still applies them and answers 422.
 */
export function launchSpecJsonSchema(): Record<string, unknown> {
  cached ??= {
    ...z.toJSONSchema(launchSpecSchema, { io: "input", unrepresentable: "any" }),
    $id: "https://forja.dev/schemas/launch-spec.json",
    title: "Forja launch spec",
    description:
      "One instance to launch: the body of POST /api/v1/orgs/{org}/instances, and each document of a `forja apply -f` file.",
  };
  return cached;
}

let applyCached: Record<string, unknown> | null = null;

/**
 * One document of a `forja apply -f` file: a launch spec, a budget (the budget API's body with `kind: budget`)
 * or an auto-shutdown policy (the policy PUT's body with `kind: auto-shutdown-policy`). All from the zod
 * schemas the API validates with.
 */
export function applyDocumentJsonSchema(): Record<string, unknown> {
  const budget = budgetSchema.extend({ kind: z.literal("budget") });
  const { $schema: _s, ...launch } = launchSpecJsonSchema();
  const { $schema: _b, ...budgetJson } = z.toJSONSchema(budget, { io: "input", unrepresentable: "any" });
  const policy = policySchema.extend({ kind: z.literal("auto-shutdown-policy") });
  const { $schema: _p, ...policyJson } = z.toJSONSchema(policy, { io: "input", unrepresentable: "any" });
  const service = serviceSpecSchema.safeExtend({ kind: z.literal("service") });
  const { $schema: _v, ...serviceJson } = z.toJSONSchema(service, { io: "input", unrepresentable: "any" });
  applyCached ??= {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://forja.dev/schemas/apply.json",
    title: "Forja apply document",
    description:
      "One document of a `forja apply -f` file: a launch spec, a budget with `kind: budget`, an auto-shutdown policy with `kind: auto-shutdown-policy`, or an inference service with `kind: service`.",
    examples: applyExamples,
    anyOf: [
      launch,
      { ...budgetJson, title: "Forja budget" },
      { ...policyJson, title: "Forja auto-shutdown policy" },
      { ...serviceJson, title: "Forja inference service" },
    ],
  };
  return applyCached;
}
