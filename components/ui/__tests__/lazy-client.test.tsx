import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { lazyClient } from "../lazy-client";

// The server (and so the hydrating render) shows the loading state and never starts the import: the module's
// code is fetched in the browser, after hydration. The browser side is walked by the e2e journeys (charts,
// logs, the launch page's service form; a chart's picture and the logs once scrolled to, when: "visible").
describe("lazyClient", () => {
  it("renders Loading on the server without loading the component", () => {
    let loads = 0;
    const Lazy = lazyClient(
      async () => {
        loads++;
        return ({ name }: { name: string }) => <p>hello {name}</p>;
      },
      () => <p role="status">loading…</p>,
    );
    expect(renderToStaticMarkup(<Lazy name="ada" />)).toBe('<p role="status">loading…</p>');
    expect(loads).toBe(0);
  });

  it("gives Loading the component's props, and prefers a fallback node passed by the page", () => {
    const Lazy = lazyClient(
      async () => () => <p>loaded</p>,
      ({ name }: { name: string }) => <p>loading {name}</p>,
    );
    expect(renderToStaticMarkup(<Lazy name="ada" />)).toBe("<p>loading ada</p>");
    expect(renderToStaticMarkup(<Lazy name="ada" fallback={<p>server view</p>} />)).toBe(
      "<p>server view</p>",
    );
  });

  it("renders nothing on the server without a Loading component", () => {
    const Lazy = lazyClient(async () => () => <p>loaded</p>);
    expect(renderToStaticMarkup(<Lazy />)).toBe("");
  });

  it("with when: visible, wraps the loading state in the div it observes, and does not load on the server", () => {
    let loads = 0;
    const Lazy = lazyClient(
      async () => {
        loads++;
        return () => <p>loaded</p>;
      },
      undefined,
      { when: "visible" },
    );
    expect(renderToStaticMarkup(<Lazy fallback={<p>server view</p>} />)).toBe(
      "<div><p>server view</p></div>",
    );
    expect(renderToStaticMarkup(<Lazy />)).toBe("<div></div>");
    expect(loads).toBe(0);
  });
});
