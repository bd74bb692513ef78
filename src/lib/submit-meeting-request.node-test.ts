import http from "node:http";
import type { AddressInfo } from "node:net";
import { startLocalBackend } from "../../local-backend";
import type { LocalBackend } from "../../local-backend";
import { CONFIRMED_STUB_SQL, openedForTests } from "../../local-backend/test-support/helpers";
import { buildContactRecord } from "./meeting-request";
import crypto from "node:crypto";
import { warmUpContactsInsert } from "./contacts-warm-up";
import {
  contactsInsertHeaders,
  insertContactRecord,
  MeetingRequestError,
  startFormProof,
} from "./submit-meeting-request";

// The real submit path (supabase-js over HTTP into PGlite with the real migration), not the form's seam.
// supabase-js as the page ships it: its auth, realtime, storage and functions clients replaced
// (gatsby-node.ts, onCreateWebpackConfig).
jest.mock("@supabase/auth-js", () => jest.requireActual("./supabase-rest-only/unused-clients"));
jest.mock("@supabase/realtime-js", () => jest.requireActual("./supabase-rest-only/unused-clients"));
jest.mock("@supabase/storage-js", () => jest.requireActual("./supabase-rest-only/unused-clients"));
jest.mock("@supabase/functions-js", () =>
  jest.requireActual("./supabase-rest-only/unused-clients"),
);

const meetingTimes = [{ value: "day2-afternoon", label: "Day 2 Afternoon" }];
const record = buildContactRecord(
  {
    fullName: "  Ana Pérez ",
    organization: "Valley Regional Transit",
    email: "ana.submit@vrt.example.org",
    phone: "",
    fleetSize: "25 vehicles",
    products: ["MobilityDR", "Vámonos!"],
    meetingTime: "day2-afternoon",
    challenges: "Riders wait too long.\n<script>alert(1)</script> ¿Qué tal? 🚌",
  },
  meetingTimes,
);

async function storedContacts(backend: LocalBackend) {
  const result = await backend.db.query<{
    name: string;
    email: string;
    organization: string;
    message: string;
  }>("select name, email, organization, message from public.contacts order by id");
  return result.rows;
}

function listenOn(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

describe("insertContactRecord against the local backend", () => {
  const backend = openedForTests(() => startLocalBackend({ port: 0, log: () => undefined }));

  it("stores exactly the assembled record", async () => {
    await insertContactRecord(record, { url: backend().url, anonKey: backend().anonKey });
    expect(await storedContacts(backend())).toEqual([record]);
    expect(record.message).toBe(
      [
        "Phone: Not provided",
        "Fleet Size: 25 vehicles",
        "Products of Interest: MobilityDR, Vámonos!",
        "Preferred Meeting Time: Day 2 Afternoon",
        "Challenges/Questions: Riders wait too long.\n<script>alert(1)</script> ¿Qué tal? 🚌",
      ].join("\n"),
    );
  });

  it("explains a wrong anon key in the console message, and stores nothing", async () => {
    const before = (await storedContacts(backend())).length;
    const failure = insertContactRecord(
      { ...record, email: "wrong.key@vrt.example.org" },
      { url: backend().url, anonKey: "not-the-key" },
    );
    await expect(failure).rejects.toThrow(MeetingRequestError);
    await expect(failure).rejects.toThrow(/HTTP 401.*GATSBY_SUPABASE_ANON_KEY/);
    expect(await storedContacts(backend())).toHaveLength(before);
  });

  it("reports a value the database refuses", async () => {
    await expect(
      insertContactRecord(
        { ...record, email: "not an address" },
        { url: backend().url, anonKey: backend().anonKey },
      ),
    ).rejects.toThrow(/HTTP 400, code 23514/);
  });

  it("names the missing settings when the page was built without them", async () => {
    await expect(insertContactRecord(record, { url: "", anonKey: "" })).rejects.toThrow(
      "Meeting requests cannot be sent: this page was built without GATSBY_SUPABASE_URL and GATSBY_SUPABASE_ANON_KEY. Rebuild the site with both set (see .env.example).",
    );
  });
});

describe("insertContactRecord when the backend is unavailable", () => {
  it("fails when nothing listens at the address", async () => {
    const server = http.createServer();
    const url = await listenOn(server);
    await new Promise((resolve) => server.close(resolve));
    await expect(insertContactRecord(record, { url, anonKey: "key" })).rejects.toThrow(
      /could not be reached/,
    );
  });

  it("abandons a request that gets no answer within the time limit", async () => {
    const hanging = new Set<http.ServerResponse>();
    const server = http.createServer((_request, response) => hanging.add(response));
    const url = await listenOn(server);
    const started = Date.now();
    await expect(
      insertContactRecord(record, { url, anonKey: "key", timeoutMs: 300 }),
    ).rejects.toThrow(`Meeting request abandoned: ${url} did not answer within 300 ms.`);
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("treats any non-2xx answer as a failure", async () => {
    const server = http.createServer((_request, response) => {
      response.writeHead(503, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: "upstream unavailable" }));
    });
    const url = await listenOn(server);
    await expect(insertContactRecord(record, { url, anonKey: "key" })).rejects.toThrow(/HTTP 503/);
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("warmUpContactsInsert (the page's start-up script), which prepares the submit", () => {
  it("sends the insert request with no rows: the backend answers it and stores nothing", async () => {
    const backend = await startLocalBackend({ port: 0, log: () => undefined });
    try {
      await expect(
        warmUpContactsInsert({ url: backend.url, anonKey: backend.anonKey }),
      ).resolves.toBeUndefined();
      expect(await storedContacts(backend)).toEqual([]);
    } finally {
      await backend.close();
    }
  }, 60_000); // PGlite's start on a busy machine

  it("asks for exactly the insert's URL and header names, so that its CORS preflight serves the insert", async () => {
    const seen: Array<{ method?: string; url?: string; headerNames: string[]; body: string }> = [];
    const server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        seen.push({
          method: request.method,
          url: request.url,
          headerNames: Object.keys(request.headers)
            .filter((name) => name !== "content-length")
            .sort(),
          body,
        });
        response.writeHead(201).end();
      });
    });
    const url = await listenOn(server);
    try {
      await warmUpContactsInsert({ url, anonKey: "key" });
      await insertContactRecord(record, { url, anonKey: "key" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const [warmUp, insert] = seen;
    expect(warmUp!.body).toBe("[]");
    expect(JSON.parse(insert!.body)).toEqual(record);
    expect({ ...warmUp, body: undefined }).toEqual({ ...insert, body: undefined });
    expect(insert!.headerNames).toEqual(
      expect.arrayContaining([
        "apikey",
        "authorization",
        "content-profile",
        "content-type",
        "x-client-info",
      ]),
    );
  });

  it("never rejects: a failed warm-up leaves the work to the submit", async () => {
    const server = http.createServer();
    const url = await listenOn(server);
    await new Promise((resolve) => server.close(resolve));
    await expect(warmUpContactsInsert({ url, anonKey: "key" })).resolves.toBeUndefined();
    await expect(warmUpContactsInsert({ url: "", anonKey: "" })).resolves.toBeUndefined();
  });
});

// Last: the proof's rounds are module state, which must not outlive the backend of an earlier describe.
describe("the page proof on the real submit path (Jest solves in-thread: __mocks__/form-proof-worker.ts)", () => {
  const until = async (condition: () => Promise<boolean> | boolean, what: string) => {
    for (const started = Date.now(); !(await condition());) {
      if (Date.now() - started > 30_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const backend = openedForTests(async () => {
    const started = await startLocalBackend({ port: 0, log: () => undefined });
    await started.db.exec(CONFIRMED_STUB_SQL);
    return started;
  });

  it("a tap before any proof sends pending:<ticket>, and the ticket is confirmed once the proof is solved", async () => {
    const headers = contactsInsertHeaders();
    expect(Object.keys(headers)).toEqual(["x-form-proof"]);
    const ticket = /^pending:([0-9a-f]{32})$/.exec(headers["x-form-proof"]!)![1]!;
    await insertContactRecord(
      { ...record, email: "pending.ticket@vrt.example.org" },
      { url: backend().url, anonKey: backend().anonKey },
    );
    const confirmed = async () =>
      (
        await backend().db.query<{ ticket_hash: string }>(
          "select ticket_hash from private.confirmed_calls",
        )
      ).rows;
    await until(async () => (await confirmed()).length > 0, "the confirmation");
    expect(await confirmed()).toEqual([
      { ticket_hash: crypto.createHash("sha256").update(ticket).digest("hex") },
    ]);
  });

  it("after the first focus the proof is solved, sent with the insert, verified by the database, and used once", async () => {
    startFormProof({ url: backend().url, anonKey: backend().anonKey });
    await until(
      () => !contactsInsertHeaders()["x-form-proof"]!.startsWith("pending:"),
      "the solved proof",
    );
    const proof = contactsInsertHeaders()["x-form-proof"]!;
    await insertContactRecord(
      { ...record, email: "solved.proof@vrt.example.org" },
      { url: backend().url, anonKey: backend().anonKey },
    );
    expect(contactsInsertHeaders()["x-form-proof"]).toMatch(/^pending:/); // spent: the next request needs a new round
    // The screening (20261124110000) judged the insert's header verified, and spent it: used once.
    const screened = await backend().db.query<{ proof: string }>(
      "select s.proof from public.contact_screening s join public.contacts c on c.id = s.contact_id where c.email = 'solved.proof@vrt.example.org'",
    );
    expect(screened.rows).toEqual([{ proof: "verified" }]);
    const again = await backend().db.query<{ v: string }>(
      "select private.form_proof_verdict($1) as v",
      [proof],
    );
    expect(again.rows[0]!.v).toBe("invalid");
    // Which starts at the next focus (startFormProof), not before: each challenge of an address costs more.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(contactsInsertHeaders()["x-form-proof"]).toMatch(/^pending:/);
    startFormProof({ url: backend().url, anonKey: backend().anonKey });
    await until(
      () => !contactsInsertHeaders()["x-form-proof"]!.startsWith("pending:"),
      "the next proof",
    );
    expect(contactsInsertHeaders()["x-form-proof"]).not.toBe(proof);
  }, 30_000); // two proofs solved in-thread on a shared machine
});
