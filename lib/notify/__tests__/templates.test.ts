import { describe, expect, it } from "vitest";
import { renderEmail } from "@/lib/notify";

describe("renderEmail", () => {
  const layout = {
    title: "Join <Acme & Co>",
    paragraphs: ['Eve "<script>alert(1)</script>" invited you.', "It expires in 7 days."],
    action: { label: "Accept invitation", url: "https://forja.example/invite?t=a&b=c" },
    footer: "You got this because someone typed your address.",
  };

  it("escapes every value in the HTML part", () => {
    const { html } = renderEmail(layout);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Join &lt;Acme &amp; Co&gt;");
    expect(html).toContain("&quot;");
    expect(html).toContain('href="https://forja.example/invite?t=a&amp;b=c"');
  });

  it("gives a plain-text part with the paragraphs, the link spelled out and the footer", () => {
    const { text } = renderEmail(layout);
    expect(text.split("\n")[0]).toBe("Join <Acme & Co>");
    expect(text).toContain("It expires in 7 days.");
    expect(text).toContain("Accept invitation: https://forja.example/invite?t=a&b=c");
    expect(text.trimEnd().endsWith("You got this because someone typed your address.")).toBe(true);
  });

  it("works without an action or footer", () => {
    const { text, html } = renderEmail({ title: "Hi", paragraphs: ["Just news."] });
    expect(text).toBe("Hi\n\nJust news.");
    expect(html).not.toContain("<a ");
  });

  it.each(["javascript:alert(1)", "/relative/path", "data:text/html,hi"])("refuses a %s link", (url) => {
    expect(() => renderEmail({ title: "x", paragraphs: [], action: { label: "Go", url } })).toThrow();
  });
});
