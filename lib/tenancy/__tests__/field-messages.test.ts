import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { invitedSignUpSchema, signInSchema, signUpSchema } from "@/lib/auth";
import { AUTH_FIELD_MESSAGES } from "@/lib/auth/field-messages";
import { TENANCY_FIELD_MESSAGES } from "@/lib/tenancy/field-messages";
import {
  changeRoleSchema,
  createProjectSchema,
  dataResidencySchema,
  inviteSchema,
  renameOrganizationSchema,
  updateProjectSchema,
} from "@/lib/tenancy/schemas";
import { messagesFor } from "@/messages";

const known = new Set<string>([
  ...Object.values(AUTH_FIELD_MESSAGES),
  ...Object.values(TENANCY_FIELD_MESSAGES),
]);

describe("field messages", () => {
  it("the English catalog says exactly what lib says, and Spanish has every key", () => {
    expect(messagesFor("en").AuthFieldErrors).toEqual(AUTH_FIELD_MESSAGES);
    expect(messagesFor("en").SettingsFieldErrors).toEqual(TENANCY_FIELD_MESSAGES);
    expect(Object.keys(messagesFor("es").AuthFieldErrors).sort()).toEqual(
      Object.keys(AUTH_FIELD_MESSAGES).sort(),
    );
    expect(Object.keys(messagesFor("es").SettingsFieldErrors).sort()).toEqual(
      Object.keys(TENANCY_FIELD_MESSAGES).sort(),
    );
  });

  // Bad values of every shape; whatever a schema answers must be a message the catalogs translate.
  const bad: unknown[] = [
    undefined,
    null,
    "",
    " ",
    "x",
    "x".repeat(300),
    42,
    [],
    ["a"],
    {},
    "Bad Slug!",
    "not-an-email",
  ];
  const schemas: Array<[string, z.ZodType, string[]]> = [
    ["sign-up", signUpSchema, ["name", "email", "password", "organizationName"]],
    ["sign-in", signInSchema, ["email", "password"]],
    ["invited sign-up", invitedSignUpSchema, ["name", "password"]],
    ["invite", inviteSchema, ["email", "role"]],
    ["change role", changeRoleSchema, ["userId", "role"]],
    ["create project", createProjectSchema, ["name", "slug", "environment"]],
    ["update project", updateProjectSchema, ["projectId", "name", "environment"]],
    ["rename organization", renameOrganizationSchema, ["name"]],
    ["data residency", dataResidencySchema, ["jurisdictions"]],
  ];
  it.each(schemas)("%s answers only catalogued messages", (_label, schema, fields) => {
    const seen = new Set<string>();
    for (const field of fields) {
      for (const value of bad) {
        const result = schema.safeParse({ [field]: value });
        for (const issue of result.success ? [] : result.error.issues) seen.add(issue.message);
      }
    }
    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].filter((m) => !known.has(m))).toEqual([]);
  });
});
