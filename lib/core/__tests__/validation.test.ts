import { describe, expect, it } from "vitest";
import { z } from "zod";
import { catalogFiltersSchema } from "@/lib/catalog";
import { parseInput, ValidationError } from "@/lib/core";

function fieldErrorsOf(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.fieldErrors;
    throw err;
  }
  throw new Error("expected a ValidationError");
}

describe("parseInput", () => {
  it("refuses NUL anywhere in the input, naming the field (PostgreSQL cannot store it)", () => {
    const schema = z.object({
      command: z.string(),
      args: z.array(z.string()),
      env: z.record(z.string(), z.string()),
    });
    const errors = fieldErrorsOf(() =>
      parseInput(schema, {
        command: "a\u0000b",
        args: ["ok", "x\u0000"],
        env: { "K\u0000": "v", OK: "\u0000" },
      }),
    );
    expect(Object.keys(errors).sort()).toEqual(["args.1", "command", "env.K", "env.OK"]);
    expect(errors.command?.[0]).toMatch(/NUL/);
  });

  it("says what is expected in words, never a regex or zod's type names", () => {
    const errors = fieldErrorsOf(() =>
      parseInput(catalogFiltersSchema, { region: ["Bad Region!"], minMemoryGib: "x" }),
    );
    expect(errors["region.0"]).toEqual(["Must be 1–63 lowercase letters, digits, dots or hyphens"]);
    expect(errors.minMemoryGib).toEqual(["Must be a number"]);
    const dates = fieldErrorsOf(() =>
      parseInput(z.object({ from: z.coerce.date(), n: z.int().max(5), kind: z.enum(["a", "b"]) }), {
        from: "yesterday",
        n: 9,
        kind: "c",
      }),
    );
    expect(dates).toEqual({
      from: ["Must be a valid date"],
      n: ["Must be at most 5"],
      kind: ['Must be one of "a", "b"'],
    });
    for (const messages of [...Object.values(errors), ...Object.values(dates)]) {
      for (const m of messages) expect(m).not.toMatch(/\/\^|expected|received|Invalid/);
    }
  });

  it("keeps a schema's own message", () => {
    const errors = fieldErrorsOf(() =>
      parseInput(z.object({ name: z.string().min(1, "Enter a name") }), { name: "" }),
    );
    expect(errors).toEqual({ name: ["Enter a name"] });
  });
});
