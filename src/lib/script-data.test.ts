import { serializeForScriptElement } from "./script-data";

describe("serializeForScriptElement", () => {
  it("cannot close its script element, whatever the content says", () => {
    const json = serializeForScriptElement({
      name: "</script><script>alert(1)</script>",
      note: "a & b <!--",
    });
    expect(json).not.toMatch(/[<>&]/);
    expect(JSON.parse(json)).toEqual({
      name: "</script><script>alert(1)</script>",
      note: "a & b <!--",
    });
  });
});
