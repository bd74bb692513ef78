import React, { useState } from "react";
import { act } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { StaticHtml } from "./static-html";

function Counter() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      Clicked {count} times
    </button>
  );
}

/** The shape of our page: static parts (rendered only at build time) around a hydrated island. */
function Page({ renderStatic }: { renderStatic: boolean }) {
  return (
    <main>
      <StaticHtml>
        {renderStatic && (
          <section>
            <h1>Built at build time</h1>
            <a href="#form">Book a meeting</a>
          </section>
        )}
      </StaticHtml>
      <Counter />
    </main>
  );
}

describe("StaticHtml", () => {
  it("renders its children into the HTML at build time", () => {
    expect(renderToString(<Page renderStatic />)).toContain("<main><div><section><h1>Built at build time</h1>");
  });

  it("keeps the server's HTML when the browser hydrates it without its children, and hydrates what is around it", async () => {
    const container = document.createElement("div");
    container.innerHTML = renderToString(<Page renderStatic />);
    document.body.appendChild(container);
    const built = container.querySelector("h1");
    const problems: unknown[] = [];
    const consoleError = jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => problems.push(args));

    await act(async () => {
      hydrateRoot(container, <Page renderStatic={false} />, { onRecoverableError: (error) => problems.push(error) });
    });
    expect(problems).toEqual([]);
    expect(container.querySelector("h1")).toBe(built); // the very same node: not re-created, not removed
    expect(container.querySelector("a")).toHaveTextContent("Book a meeting");

    const button = container.querySelector("button")!;
    await act(async () => button.click());
    expect(button).toHaveTextContent("Clicked 1 times"); // the island around it is live
    expect(container.querySelector("h1")).toBe(built);
    consoleError.mockRestore();
    container.remove();
  });
});
