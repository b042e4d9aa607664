import fc from "fast-check";

/** Strings an outside tester throws at an API: NUL and other control characters, escapes, huge, numeric edge cases. */
export const badString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "%00",
    "%ZZ",
    "%",
    "\r\n",
    "\u0007\u001b[2J",
    "\u202e",
    "💥",
    " ",
    "",
    "-1",
    "0",
    "NaN",
    "1e309",
    "-1e309",
    "Infinity",
    "null",
    "undefined",
    "true",
    "[]",
    "{}",
    "../../../etc/passwd",
    "' or 1=1 --",
    "<script>alert(1)</script>",
    "00000000-0000-0000-0000-000000000000",
    "2026-02-30T25:61:00Z",
  ),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 8 }),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: 1000, max: 70_000 }).map((n) => "x".repeat(n)),
  fc.double().map(String),
  fc.bigInt().map(String),
);

/** Any JSON value of the wrong kind: numbers out of range, nested arrays where objects belong, and so on. */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  badString,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e300, 0.5),
  fc.boolean(),
  fc.constant(null),
  fc.array(badString, { maxLength: 3 }),
  fc.array(fc.array(fc.integer(), { maxLength: 2 }), { maxLength: 2 }),
  fc.dictionary(badString, badString, { maxKeys: 3 }),
);

/** JSON text that is not valid JSON, or valid JSON that no operation accepts as its body. */
export function badBodyText(properties: string[]): fc.Arbitrary<string> {
  const shaped = fc
    .record(Object.fromEntries(properties.map((p) => [p, badValue])), { requiredKeys: [] })
    .map((o) => JSON.stringify(o));
  // 1e309 is valid JSON text that overflows to Infinity when parsed.
  const overflow = fc.constantFrom(...properties, "x").map((p) => `{"${p}": 1e309}`);
  return fc.oneof(
    fc.constantFrom(
      "",
      " ",
      "{",
      "nul",
      "NaN",
      '{"a":}',
      "[1,]",
      "\u0000",
      '{"a":"\\u0000"}',
      "[]",
      "[{}]",
      "null",
      "0",
      '"a string"',
      "{".repeat(5000),
      `{"pad":"${"x".repeat(70 * 1024)}"}`,
    ),
    overflow,
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "null"),
    shaped,
    shaped.map((s) => `[${s}]`),
  );
}

export const contentType = fc.constantFrom(
  "application/json",
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=utf-16",
  "application/xml",
);

/** A query string of known and unknown names with bad values (encoded; a raw %ZZ is left for the live pass). */
export function badQuery(names: string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    fc.constantFrom(...names, "page", "x"),
    badString.filter((s) => s.length < 30),
  );
  return fc
    .array(fc.tuple(name, badString), { maxLength: 4 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"));
}
