import { publicHandler } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { applyDocumentJsonSchema } from "@/lib/api/openapi/launch-spec-schema";

/** GET: the JSON Schema of one `forja apply -f` document (a launch spec, a budget or a policy), public, for editors. */
export const GET = publicHandler(async () =>
  Response.json(applyDocumentJsonSchema(), {
    headers: { "content-type": "application/schema+json", "cache-control": "public, max-age=300" },
  }),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
