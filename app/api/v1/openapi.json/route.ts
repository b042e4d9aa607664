import { openApiDocument } from "@/lib/api/openapi/document";
import { errorToProblem } from "@/lib/api/problem";

/** GET: the OpenAPI 3.1 document (public: it describes the API, not anyone's data). */
export async function GET(req: Request) {
  try {
    return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
  } catch (err) {
    return errorToProblem(err, new URL(req.url).pathname);
  }
}
