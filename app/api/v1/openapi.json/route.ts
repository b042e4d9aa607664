import { publicHandler } from "@/lib/api/handler";
import { notAllowed } from "@/lib/api/not-allowed";
import { openApiDocument } from "@/lib/api/openapi/document";

/** GET: the OpenAPI 3.1 document (public: it describes the API, not anyone's data). */
export const GET = publicHandler(async () =>
  Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } }),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
