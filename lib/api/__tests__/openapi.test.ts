import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { GET as openApiRoute } from "@/app/api/v1/openapi.json/route";
import type { Me } from "@/lib/api/me";
import { openApiDocument } from "@/lib/api/openapi/document";
import { launchExamples } from "@/lib/api/openapi/examples";
import { applyDocumentJsonSchema } from "@/lib/api/openapi/launch-spec-schema";
import type {
  instanceDetailSchema,
  instanceListSchema,
  instanceLogsSchema,
  meSchema,
  offeringPageSchema,
  utilizationSeriesSchema,
} from "@/lib/api/openapi/responses";
import type { OfferingPage } from "@/lib/catalog";
import { type InstanceDetailView, type InstanceListView, launchSpecSchema } from "@/lib/provisioning";
import type { InstanceLogs, UtilizationSeries } from "@/lib/telemetry";

// Compile-time: the documented response schemas are exactly the types the routes return (tsc fails on drift).
// (Flattened one level: zod's inferred object types are intersections that the identity check would reject.)
type Flat<T> = { [K in keyof T]: T[K] };
type Equal<A, B> =
  (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;
const sameShape: [
  Equal<z.output<typeof instanceDetailSchema>, InstanceDetailView>,
  Equal<z.output<typeof instanceListSchema>, InstanceListView>,
  Equal<z.output<typeof meSchema>, Me>,
  Equal<z.output<typeof offeringPageSchema>, OfferingPage>,
  Equal<z.output<typeof instanceLogsSchema>, InstanceLogs>,
  Equal<z.output<typeof utilizationSeriesSchema>, UtilizationSeries>,
] = [true, true, true, true, true, true];

const API_DIR = path.resolve(import.meta.dirname, "../../../app/api/v1");

/** Every route handler file under app/api/v1 as an OpenAPI path ("/orgs/{org}/…") and its exported methods. */
function routeFiles(dir = API_DIR): Array<{ path: string; methods: string[] }> {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    if (entry.name !== "route.ts") return [];
    const route = path
      .relative(API_DIR, dir)
      .split(path.sep)
      .map((seg) => seg.replace(/^\[(\w+)\]$/, "{$1}"))
      .join("/");
    const source = fs.readFileSync(full, "utf8");
    const methods = [
      ...source.matchAll(/export (?:async function|const) (GET|POST|PUT|PATCH|DELETE)\b/g),
    ].map((m) => (m[1] as string).toLowerCase());
    return [{ path: `/${route}`, methods }];
  });
}

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(sameShape.every(Boolean)).toBe(true);
    const res = await openApiRoute(new Request("http://forja.test/api/v1/openapi.json"));
    expect(res.status).toBe(200);
    const doc = await res.json();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(doc.servers).toEqual([{ url: "/api/v1" }]);
  });

  it("documents every route handler under /api/v1 with each method it exports", async () => {
    const doc = await (await openApiRoute(new Request("http://forja.test/api/v1/openapi.json"))).json();
    const routes = routeFiles();
    expect(routes.length).toBeGreaterThanOrEqual(15);
    for (const route of routes) {
      expect(route.methods.length, route.path).toBeGreaterThan(0);
      expect(Object.keys(doc.paths[route.path] ?? {}).sort(), route.path).toEqual([...route.methods].sort());
    }
    expect(Object.keys(doc.paths).sort()).toEqual(routes.map((r) => r.path).sort());
  });

  it("takes the launch body from the library's launch schema, with its limits", async () => {
    const doc = await (await openApiRoute(new Request("http://forja.test/api/v1/openapi.json"))).json();
    const launch = doc.paths["/orgs/{org}/instances"].post;
    const body = launch.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(["kind", "name", "project", "region", "instanceType", "image"]);
    expect(body.properties.diskGib).toMatchObject({ minimum: 10, maximum: 4096, default: 100 });
    expect(launch.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).toEqual([
      "path:org",
      "header:Idempotency-Key",
    ]);
    expect(Object.keys(launch.responses)).toEqual(
      expect.arrayContaining(["201", "200", "400", "401", "403", "404", "409", "422", "429"]),
    );
  });

  it("documents the reservation purchase's Idempotency-Key header and its replay answer", async () => {
    const doc = await (await openApiRoute(new Request("http://forja.test/api/v1/openapi.json"))).json();
    const buy = doc.paths["/orgs/{org}/usage/reservations"].post;
    expect(buy.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`)).toEqual([
      "path:org",
      "header:Idempotency-Key",
    ]);
    expect(buy.responses["200"].headers).toHaveProperty("Idempotent-Replayed");
    expect(Object.keys(buy.responses)).toEqual(
      expect.arrayContaining(["201", "200", "400", "409", "413", "422"]),
    );
  });
});

describe("operators' creates (issue 10)", () => {
  it("document the Idempotency-Key header and the replay on POST /admin/cohorts, /admin/nodes, /admin/prices", async () => {
    const doc = await (await openApiRoute(new Request("http://forja.test/api/v1/openapi.json"))).json();
    for (const path of ["/admin/cohorts", "/admin/nodes", "/admin/prices"]) {
      const post = doc.paths[path].post;
      expect(
        post.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`),
        path,
      ).toEqual(["header:Idempotency-Key"]);
      expect(post.responses["200"].headers, path).toHaveProperty("Idempotent-Replayed");
      expect(Object.keys(post.responses), path).toEqual(expect.arrayContaining(["201", "200", "409"]));
    }
  });

  it("every POST that creates (answers 201) takes an Idempotency-Key", async () => {
    const doc = await (await openApiRoute(new Request("http://forja.test/api/v1/openapi.json"))).json();
    const missing: string[] = [];
    type Post = { responses?: Record<string, unknown>; parameters?: Array<{ name: string }> };
    for (const [path, item] of Object.entries(doc.paths as Record<string, { post?: Post }>)) {
      const post = item.post;
      if (!post?.responses?.["201"]) continue;
      const names = (post.parameters ?? []).map((p) => p.name);
      if (!names.includes("Idempotency-Key")) missing.push(path);
    }
    expect(missing).toEqual([]);
  });
});

describe("examples (issue 10)", () => {
  type Media = { schema?: object; examples?: Record<string, { value: unknown }> };
  type Op = {
    requestBody?: { content?: Record<string, Media> };
    responses?: Record<string, { content?: Record<string, Media> }>;
  };

  it("launch and the instance list carry examples; every example in the document validates against its schema", async () => {
    const doc = JSON.parse(JSON.stringify(openApiDocument())) as {
      paths: Record<string, Record<string, Op>>;
      components: unknown;
    };
    const instances = doc.paths["/orgs/{org}/instances"] as Record<string, Op>;
    expect(Object.keys(instances.post?.requestBody?.content?.["application/json"]?.examples ?? {})).toEqual([
      "notebook",
      "training",
    ]);
    expect(
      Object.keys(instances.get?.responses?.["200"]?.content?.["application/json"]?.examples ?? {}),
    ).toEqual(["running"]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const medias = [
          ...Object.values(op.requestBody?.content ?? {}),
          ...Object.values(op.responses ?? {}).flatMap((r) => Object.values(r.content ?? {})),
        ];
        for (const m of medias) {
          for (const [name, ex] of Object.entries(m.examples ?? {})) {
            const validate = ajv.compile({ ...m.schema, components: doc.components });
            expect(validate(ex.value), `${method} ${path} ${name}: ${ajv.errorsText(validate.errors)}`).toBe(
              true,
            );
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
    // The launch examples are also what the API's own parser takes.
    for (const ex of Object.values(launchExamples))
      expect(launchSpecSchema.safeParse(ex.value).success).toBe(true);
  });

  it("the apply document schema's examples (an instance, a budget) validate against it", () => {
    const schema = applyDocumentJsonSchema();
    const examples = schema.examples as unknown[];
    expect(examples.map((e) => (e as { kind: string }).kind)).toEqual(["notebook", "budget"]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const { $schema: _s, ...rest } = schema;
    const validate = ajv.compile(rest);
    for (const e of examples) expect(validate(e), ajv.errorsText(validate.errors)).toBe(true);
  });
});

describe("lost updates (issue 10)", () => {
  it("every PUT, PATCH and DELETE takes If-Match and documents the 412", async () => {
    const doc = await (await openApiRoute(new Request("http://forja.test/api/v1/openapi.json"))).json();
    type Op = { parameters?: Array<{ name: string }>; responses: Record<string, unknown> };
    // A scheduled price change is never edited, only cancelled (409 once in force): nothing to lose there.
    const exempt = new Set(["DELETE /admin/prices/{id}"]);
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Op>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!["put", "patch", "delete"].includes(method)) continue;
        const name = `${method.toUpperCase()} ${path}`;
        const takes = (op.parameters ?? []).some((p) => p.name === "If-Match");
        if (!exempt.has(name) && (!takes || !op.responses["412"])) missing.push(name);
      }
    }
    expect(missing).toEqual([]);
  });
});
