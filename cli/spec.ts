import fs from "node:fs";
import { parseAllDocuments } from "yaml";
import type { components, paths } from "./api/openapi";
import { CliError, EXIT } from "./errors";

/** The launch spec, as the OpenAPI document types it (the API validates it with the same zod schema). */
export type LaunchSpec = paths["/orgs/{org}/instances"]["post"]["requestBody"] extends
  | { content: { "application/json": infer B } }
  | undefined
  ? B
  : never;
export type Instance = components["schemas"]["Instance"];
type BudgetBody = paths["/orgs/{org}/budgets"]["post"]["requestBody"] extends
  | { content: { "application/json": infer B } }
  | undefined
  ? B
  : never;
/** A budget in an apply file: the API's budget body with `kind: budget`. */
export type BudgetDoc = BudgetBody & { kind: "budget" };
type PolicyBody = paths["/orgs/{org}/auto-shutdown/policies"]["put"]["requestBody"] extends
  | { content: { "application/json": infer B } }
  | undefined
  ? B
  : never;
/** An auto-shutdown policy in an apply file: the API's policy body with `kind: auto-shutdown-policy`. */
export type PolicyDoc = PolicyBody & { kind: "auto-shutdown-policy" };
type ServiceBody = paths["/orgs/{org}/services"]["post"]["requestBody"] extends
  | { content: { "application/json": infer B } }
  | undefined
  ? B
  : never;
/** An inference service in an apply file: the API's service body with `kind: service`. */
export type ServiceDoc = ServiceBody & { kind: "service" };
export type ApplyDoc = LaunchSpec | BudgetDoc | PolicyDoc | ServiceDoc;
export const isBudget = (d: ApplyDoc): d is BudgetDoc => (d as { kind: string }).kind === "budget";
export const isPolicy = (d: ApplyDoc): d is PolicyDoc =>
  (d as { kind: string }).kind === "auto-shutdown-policy";
export const isService = (d: ApplyDoc): d is ServiceDoc => (d as { kind: string }).kind === "service";
export const isLaunch = (d: ApplyDoc): d is LaunchSpec => !isBudget(d) && !isPolicy(d) && !isService(d);

/** Every YAML document of a file (`---` separated), each an object; comments and empty documents ignored. */
export function readSpecFile(file: string): ApplyDoc[] {
  let text: string;
  try {
    text = file === "-" ? fs.readFileSync(0, "utf8") : fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(`Cannot read ${file}: ${(err as Error).message}`, EXIT.usage);
  }
  const docs = parseAllDocuments(text);
  const out: ApplyDoc[] = [];
  for (const [i, doc] of (Array.isArray(docs) ? docs : [docs]).entries()) {
    if (doc.errors.length > 0) {
      throw new CliError(
        `${file}, document ${i + 1}: ${doc.errors[0]?.message ?? "invalid YAML"}`,
        EXIT.usage,
      );
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (typeof value !== "object" || Array.isArray(value)) {
      throw new CliError(`${file}, document ${i + 1}: expected a launch spec (a mapping)`, EXIT.usage);
    }
    const spec = value as ApplyDoc;
    if (!isPolicy(spec) && typeof spec.name !== "string") {
      throw new CliError(`${file}, document ${i + 1}: every document needs a name`, EXIT.usage);
    }
    out.push(spec);
  }
  return out;
}

/** `KEY=value` flags → an env record. */
export function envFrom(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf("=");
    if (i <= 0) throw new CliError(`--env ${p}: expected KEY=value`, EXIT.usage);
    env[p.slice(0, i)] = p.slice(i + 1);
  }
  return env;
}
