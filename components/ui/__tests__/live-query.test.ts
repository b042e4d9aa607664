import { describe, expect, it } from "vitest";
import { keyStartsWith } from "../live-query";

// refreshLive(["instances", org]) after a stop must reach every filtered list of that organization, never another's.
describe("keyStartsWith", () => {
  it("matches a key by its leading elements, compared as values", () => {
    expect(keyStartsWith(["instances", "acme", "state=running"], ["instances", "acme"])).toBe(true);
    expect(keyStartsWith(["instances", "acme"], ["instances", "acme"])).toBe(true);
    expect(keyStartsWith(["instance", "acme", "id-1"], ["instance", "acme", "id-1"])).toBe(true);
    expect(keyStartsWith(["instances", "acme-2", ""], ["instances", "acme"])).toBe(false);
    expect(keyStartsWith(["instances"], ["instances", "acme"])).toBe(false);
    expect(keyStartsWith(["instance-logs", "acme", "x"], ["instances", "acme"])).toBe(false);
  });
});
