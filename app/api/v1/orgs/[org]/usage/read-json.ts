import { ValidationError } from "@/lib/core";

/** A body that is not a JSON object is a 422 like any other bad input, not a 500. */
export async function readJson(req: Request): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await req.json();
    if (body && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new ValidationError({ _body: ["Send a JSON object"] }, "The request body must be a JSON object");
}
