/**
 * Ctrl-C in the terminal of `npm run backend` while staff e-mails are being sent: the terminal
 * signals the whole process group. The e-mails the SMTP server has already received must be
 * recorded as delivered before the backend exits, or they are sent again once their lease
 * expires (the burst probe of issue 19 saw every one of them twice, two minutes apart).
 */
import type { AddressInfo } from "node:net";

import { SMTPServer } from "smtp-server";

import { LOCAL_ANON_KEY } from "../../build-time/local-backend-defaults";
import { loadRequests } from "../requests";
import { goodRow, pageProofOverHttp } from "../test-support/helpers";
import { spawnBackend, tempDataDir, waitForGroupExit } from "../test-support/processes";

jest.setTimeout(120_000);

const REQUESTS = 3;
/** How long the SMTP server takes to answer a message it has received in full. */
const SLOW_ANSWER_MS = 1_500;

/** An SMTP server that keeps every message it receives, then takes its time to say so. */
async function startSlowSmtpServer(): Promise<{
  port: number;
  received: string[];
  close(): Promise<void>;
}> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push(/^Message-ID: *(.+)$/im.exec(raw)?.[1]?.trim() ?? raw.slice(0, 40));
        setTimeout(() => callback(), SLOW_ANSWER_MS);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const connection of server.connections) connection.close();
      }),
  };
}

test("one Ctrl-C while e-mails are in flight: each e-mail staff received is recorded as delivered, none is left to be sent again", async () => {
  const smtp = await startSlowSmtpServer();
  const dataDir = tempDataDir("stop-delivery-");
  const backend = spawnBackend(dataDir, {
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtp.port),
    LOCAL_NOTIFICATIONS: "on",
  });
  try {
    const url = await backend.ready;
    for (let i = 0; i < REQUESTS; i += 1) {
      const response = await fetch(`${url}/rest/v1/contacts`, {
        method: "POST",
        // Sent as the page sends it (page-verified): notified one by one (the screening, 20261124110000).
        headers: {
          apikey: LOCAL_ANON_KEY,
          "Content-Type": "application/json",
          "x-form-proof": await pageProofOverHttp(url, LOCAL_ANON_KEY),
        },
        body: JSON.stringify(goodRow({ message: `stop during delivery #${i}` })),
      });
      expect(response.status).toBe(201);
    }
    // Every message is on the SMTP server, whose answers are still on their way.
    const deadline = Date.now() + 30_000;
    while (smtp.received.length < REQUESTS && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(smtp.received).toHaveLength(REQUESTS);

    process.kill(-backend.child.pid!, "SIGINT");
    expect(await waitForGroupExit(backend.child.pid!)).toBe(true);
    expect(backend.output()).toContain("Local backend stopped.");

    const { requests } = await loadRequests(dataDir);
    expect(requests).toHaveLength(REQUESTS);
    expect(requests.map((request) => request.notification?.status)).toEqual(
      Array(REQUESTS).fill("delivered"),
    );
    expect(new Set(smtp.received).size).toBe(REQUESTS);
  } finally {
    try {
      process.kill(-backend.child.pid!, "SIGKILL");
    } catch {
      // the group has ended
    }
    await smtp.close();
  }
});
