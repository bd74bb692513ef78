import { kongPreflight } from "./https-origin";

describe("kongPreflight, hosted Supabase's gateway answering a CORS preflight", () => {
  it("answers 200 with any origin, the requested headers reflected, Kong's method list and no Max-Age", () => {
    const answer = kongPreflight(
      {
        origin: "https://expo.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "apikey,authorization,content-type,x-form-proof",
      },
      "OPTIONS",
    );
    expect(answer).toEqual({
      status: 200,
      headers: {
        "access-control-allow-origin": "*",
        "access-control-allow-headers": "apikey,authorization,content-type,x-form-proof",
        "access-control-allow-methods": "GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT",
        "content-length": "0",
      },
    });
  });

  it("leaves anything that is not a preflight to the API", () => {
    expect(kongPreflight({ origin: "https://expo.example" }, "OPTIONS")).toBeUndefined();
    expect(kongPreflight({ "access-control-request-method": "POST" }, "OPTIONS")).toBeUndefined();
    expect(
      kongPreflight(
        { origin: "https://expo.example", "access-control-request-method": "POST" },
        "POST",
      ),
    ).toBeUndefined();
  });
});
