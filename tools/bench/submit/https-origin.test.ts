import { kongPreflight } from "./https-origin";

const origin = "https://expo.example";
const requested = "apikey,authorization,content-type,x-form-proof";

test("a preflight is answered as Kong does: 200, any origin, the requested headers, no Max-Age", () => {
  const preflight = { origin, "access-control-request-method": "POST" };
  expect(
    kongPreflight({ ...preflight, "access-control-request-headers": requested }, "OPTIONS"),
  ).toEqual({
    status: 200,
    headers: {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": requested,
      "access-control-allow-methods": "GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT",
      "content-length": "0",
    },
  });
});

test.each([
  ["OPTIONS without a requested method", { origin }, "OPTIONS"],
  ["OPTIONS without an origin", { "access-control-request-method": "POST" }, "OPTIONS"],
  ["a POST", { origin, "access-control-request-method": "POST" }, "POST"],
])("%s is left to the API", (_, headers, method) => {
  expect(kongPreflight(headers, method)).toBeUndefined();
});
