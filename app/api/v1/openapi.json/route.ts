import { publicHandler } from "@/lib/api/handler";
import { openApiDocument } from "@/lib/api/openapi/document";

/** GET: the OpenAPI 3.1 document (public: it describes the API, not anyone's data). */
export const GET = publicHandler(async () =>
  Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } }),
);
