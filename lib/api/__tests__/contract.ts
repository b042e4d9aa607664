import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "@/lib/api/openapi/document";

/**
 * Every response the API test suite receives is checked against the OpenAPI document (support.ts `call`):
 * its path and method must be documented, its status must be one the operation lists, and a JSON body must
 * validate against that status's schema (with formats). A route whose answer drifts from the contract fails
 * the test that exercised it, not only the few that parse with a hand-picked schema.
 *
 * (ajv is the JSON Schema validator that @seriousme/openapi-schema-validator, a dev dependency, brings.)
 */
type Operation = { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Doc = { paths: Record<string, Record<string, Operation>>; components?: unknown };

const doc = JSON.parse(JSON.stringify(openApiDocument())) as Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const compiled = new Map<string, ValidateFunction>();

/** Templates ordered so literal segments win ("/instances/launch-preview" before "/instances/{id}"). */
const templates = Object.keys(doc.paths)
  .map((t) => ({
    t,
    re: new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    literals: t.split("/").filter((s) => s && !s.startsWith("{")).length,
  }))
  .sort((a, b) => b.literals - a.literals);

export function templateOf(path: string): string | undefined {
  return templates.find((x) => x.re.test(path))?.t;
}

/** Throws, naming the operation and what is wrong, when the response is not what the document says. */
export async function assertDocumented(method: string, url: string, res: Response): Promise<void> {
  const path = new URL(url).pathname.replace(/^\/api\/v1/, "") || "/";
  const template = templateOf(path);
  const what = `${method} ${template ?? path} → ${res.status}`;
  if (!template) throw new Error(`${what}: the path is not in the OpenAPI document`);
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`${what}: the method is not in the OpenAPI document`);
  // 405s come from notAllowed() for the methods an operation does not have, so they are never documented.
  if (res.status === 405) return;
  const documented = op.responses[String(res.status)];
  if (!documented) {
    throw new Error(`${what}: status not documented (has ${Object.keys(op.responses).join(", ")})`);
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (res.status === 204 || res.body === null) return;
  const media = documented.content?.[type];
  if (!media) {
    throw new Error(
      `${what}: content type ${type} not documented (${Object.keys(documented.content ?? {})})`,
    );
  }
  if (!type.endsWith("json") || !media.schema) return;
  const key = `${template} ${method} ${res.status} ${type}`;
  let validate = compiled.get(key);
  if (!validate) {
    // The document's $refs point at #/components: compile each schema with them beside it.
    validate = ajv.compile({ ...(media.schema as object), components: doc.components });
    compiled.set(key, validate);
  }
  const body: unknown = await res.clone().json();
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || "/"} ${e.message}`)
      .join("; ");
    throw new Error(`${what}: body does not match the document: ${errors}`);
  }
}
