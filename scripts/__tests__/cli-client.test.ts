import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_TYPES, generateClientTypes } from "../cli-client";

/**
 * The CLI's typed client cannot drift from the API: its types are generated from the OpenAPI document, and
 * this fails when the committed file is not what the current document produces (run `npm run cli:client`).
 */
describe("cli/api/openapi.d.ts", () => {
  it("is what `npm run cli:client` generates from the current OpenAPI document", async () => {
    const committed = fs.readFileSync(CLIENT_TYPES, "utf8");
    const fresh = await generateClientTypes();
    expect(committed === fresh, "cli/api/openapi.d.ts is stale: run `npm run cli:client` and commit it").toBe(
      true,
    );
    // It is the document's paths, not an empty file that trivially matches.
    expect(fresh).toContain('"/orgs/{org}/instances/{id}/snooze"');
  });
});
