import { describe, expect, it } from "vitest";
import { DEFAULT_SPOT_NOTICE_SECONDS, spotNoticeMsFrom } from "@/lib/provisioning";

describe("FORJA_SPOT_NOTICE_SECONDS", () => {
  it("sets the notice in whole seconds from 15 to 3600; anything else is the 2-minute default", () => {
    expect(DEFAULT_SPOT_NOTICE_SECONDS).toBe(120);
    expect(spotNoticeMsFrom(undefined)).toBe(120_000);
    expect(spotNoticeMsFrom("")).toBe(120_000);
    expect(spotNoticeMsFrom("30")).toBe(30_000);
    expect(spotNoticeMsFrom("15")).toBe(15_000);
    expect(spotNoticeMsFrom("3600")).toBe(3_600_000);
    for (const bad of ["14", "3601", "-5", "0", "1.5", "soon", "1e9"])
      expect(spotNoticeMsFrom(bad)).toBe(120_000);
  });
});
