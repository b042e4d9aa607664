import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 12 item 1: the sign-in and sign-up forms had only onSubmit, so before JavaScript loaded the browser
 * submitted them as GET with the password in the URL. Every <form> in app/ and components/ must either post
 * to a server action through its `action` (progressive enhancement: a native POST without JavaScript) or be
 * an explicit `method="get"` filter form, and a GET form may not hold a password or any secret-like field.
 */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "__tests__" ? [] : sources(p);
    return p.endsWith(".tsx") ? [p] : [];
  });
}

/** The opening tag of each <form …> in a file (JSX attributes may span lines; `>` inside {…} is skipped). */
function formTags(src: string): string[] {
  const tags: string[] = [];
  for (const m of src.matchAll(/<form[\s>]/g)) {
    let depth = 0;
    let i = m.index + 5;
    for (; i < src.length; i++) {
      const c = src[i];
      if (c === "{") depth++;
      else if (c === "}") depth--;
      else if (c === ">" && depth === 0) break;
    }
    tags.push(src.slice(m.index, i + 1));
  }
  return tags;
}

describe("every form posts", () => {
  const files = [...sources("app"), ...sources("components")];
  const forms = files.flatMap((f) => formTags(fs.readFileSync(f, "utf8")).map((tag) => ({ f, tag })));

  it("finds the product's forms", () => {
    expect(forms.length).toBeGreaterThan(15);
  });

  it.each(forms.map((x) => [`${x.f}: ${x.tag.slice(0, 60).replace(/\s+/g, " ")}`, x] as const))(
    "%s",
    (_name, { f, tag }) => {
      const get = /method="get"/.test(tag);
      const action = /\saction=\{/.test(tag);
      expect(get || action, `${f}: a <form> needs action={serverAction} or an explicit method="get"`).toBe(
        true,
      );
      if (get) {
        const src = fs.readFileSync(f, "utf8");
        expect(src, `${f}: a GET form must not carry a password`).not.toMatch(/type="password"/);
        expect(src, `${f}: a GET form must not carry a secret`).not.toMatch(/name="(password|token|secret)"/);
      }
    },
  );
});
