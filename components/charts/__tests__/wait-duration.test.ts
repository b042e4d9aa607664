import { describe, expect, it } from "vitest";
import { waitParts } from "../wait-duration";

describe("waitParts", () => {
  it("switches units exactly at 90 s and 2 h", () => {
    expect(waitParts(89)).toEqual({ value: 89, unit: "seconds" });
    expect(waitParts(90)).toEqual({ value: 1.5, unit: "minutes" });
    expect(waitParts(7199)).toEqual({ value: 120, unit: "minutes" });
    expect(waitParts(7200)).toEqual({ value: 2, unit: "hours" });
  });

  it("never shows a negative wait (clock skew between queued_at and now)", () => {
    expect(waitParts(-3)).toEqual({ value: 0, unit: "seconds" });
  });
});
