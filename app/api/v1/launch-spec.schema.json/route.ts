import { publicHandler } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { launchSpecJsonSchema } from "@/lib/api/openapi/launch-spec-schema";

/**
 * GET: the launch spec as JSON Schema (public), the schema of `forja apply -f` files: editors validate YAML
 * against it (`# yaml-language-server: $schema=…/api/v1/launch-spec.schema.json`).
 */
export const GET = publicHandler(async () =>
  Response.json(launchSpecJsonSchema(), {
    headers: { "content-type": "application/schema+json", "cache-control": "public, max-age=300" },
  }),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
