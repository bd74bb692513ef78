/**
 * The real submit path and its warm-up against servers that misbehave (plain Node HTTP), and the
 * campaign the insert carries. Against the real local backend (a wrong key):
 * local-backend/page-submit.test.ts; the backend down or silent: e2e/tests/form-failures.spec.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { warmUpContactsInsert } from "./contacts-warm-up";
import { campaignHeaderValue, insertContactRecord } from "./submit-meeting-request";

const record = {
  name: "Ana Pérez",
  email: "ana@vrt.example.org",
  organization: "VRT",
  message: "Hi",
};

describe("insertContactRecord", () => {
  it("fails with the server's error when its answer is not 2xx", async () => {
    const server = http.createServer((_request, response) => {
      response.writeHead(503, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: "upstream unavailable" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await expect(insertContactRecord(record, { url, anonKey: "key" })).rejects.toThrow(
        "Meeting request refused (HTTP 503): upstream unavailable",
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("names the missing settings when the page was built without them", async () => {
    await expect(insertContactRecord(record, { url: "", anonKey: "" })).rejects.toThrow(
      "Meeting requests cannot be sent: this page was built without GATSBY_SUPABASE_URL and GATSBY_SUPABASE_ANON_KEY. Rebuild the site with both set (see .env.example).",
    );
  });
});

// That it asks for the insert's URL and header names, so its CORS preflight serves the insert:
// e2e/tests/form-start-up.spec.ts, in Chromium.
describe("warmUpContactsInsert (sent by the page's loader), which prepares the submit", () => {
  it("never rejects: a failed warm-up leaves the work to the submit", async () => {
    // Nothing listens at the first address; the second is a build without settings.
    for (const url of ["http://127.0.0.1:1", ""])
      await expect(warmUpContactsInsert({ url, anonKey: "key" })).resolves.toBeUndefined();
  });
});

it("the insert's x-campaign carries the visit's campaign only when the visit may be counted", () => {
  const visit = (search: string, navigator: object = { userAgent: "Firefox" }) =>
    campaignHeaderValue({ navigator, location: { search } } as unknown as Window);
  expect(visit("?utm_source=Newsletter&utm_medium=email&utm_campaign=CTAA 2025")).toBe(
    "newsletter/email/ctaa-2025",
  );
  expect(visit("?src=booth-flyer")).toBe("booth-flyer/qr/");
  expect(visit("")).toBe("");
  expect(visit("?src=booth-flyer", { userAgent: "Firefox", globalPrivacyControl: true })).toBe("");
  expect(visit("?src=booth-flyer", { userAgent: "Firefox", webdriver: true })).toBe("");
});
