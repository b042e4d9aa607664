import type { z } from "zod";

/**
 * zod's default messages are written for programmers ("Invalid string: must match pattern /^[a-z]…/",
 * "expected date, received Date"). This error map is applied only where a schema gave no message of its
 * own, and says in words what is expected, so nothing raw reaches an API user or a form.
 */
const TYPE_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  bigint: "a whole number",
  date: "a valid date",
  array: "a list",
  object: "an object",
  record: "an object",
  tuple: "a list",
  null: "null",
};

const UNITS: Record<string, [string, string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
  file: ["byte", "bytes"],
};

function limit(n: number | bigint, origin: string): string {
  const unit = UNITS[origin];
  if (!unit) return String(n);
  return `${n} ${Number(n) === 1 ? unit[0] : unit[1]}`;
}

function list(values: readonly unknown[]): string {
  const shown = values.slice(0, 12).map((v) => JSON.stringify(v));
  return values.length > 12 ? `${shown.join(", ")}, …` : shown.join(", ");
}

export const inWords: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "Required";
      return `Must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    }
    case "too_small": {
      if (issue.origin === "date") return "Is too early";
      if (issue.origin === "string" && Number(issue.minimum) === 1) return "Must not be empty";
      if (issue.origin === "array" && Number(issue.minimum) === 1) return "Must have at least one item";
      const n = limit(issue.minimum, issue.origin);
      if (issue.exact) return `Must be exactly ${n}`;
      return issue.inclusive === false ? `Must be more than ${n}` : `Must be at least ${n}`;
    }
    case "too_big": {
      if (issue.origin === "date") return "Is too late";
      const n = limit(issue.maximum, issue.origin);
      if (issue.exact) return `Must be exactly ${n}`;
      return issue.inclusive === false ? `Must be less than ${n}` : `Must be at most ${n}`;
    }
    case "invalid_value":
      return issue.values.length === 1
        ? `Must be ${list(issue.values)}`
        : `Must be one of ${list(issue.values)}`;
    case "invalid_format":
      switch (issue.format) {
        case "email":
          return "Must be an email address";
        case "uuid":
        case "guid":
          return "Must be an id (a UUID)";
        case "url":
          return "Must be a URL";
        case "datetime":
        case "date":
          return "Must be a date and time in ISO 8601 (e.g. 2026-01-31T00:00:00Z)";
        default:
          return "Is not in the expected format";
      }
    case "not_multiple_of":
      return `Must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `Unknown ${issue.keys.length === 1 ? "field" : "fields"}: ${issue.keys.join(", ")}`;
    case "invalid_key":
      return "Has an invalid key";
    case "invalid_element":
      return "Has an invalid item";
    case "invalid_union":
      return "Is not a valid value";
    case "custom":
      return "Is not valid";
    default:
      return undefined;
  }
};
