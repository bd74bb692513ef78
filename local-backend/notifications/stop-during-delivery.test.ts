/**
 * Ctrl-C (to the whole process group) while staff e-mails are being sent: what the SMTP server
 * received must be recorded as delivered before the backend exits, or it is sent again.
 */
import type { AddressInfo } from "node:net";

import { SMTPServer } from "smtp-server";

import { loadRequests } from "../requests";
import { waitUntil } from "../test-support/helpers";
import { insertLoad, spawnBackend, tempDataDir, waitForGroupExit } from "../test-support/processes";

jest.setTimeout(120_000);

/** An SMTP server that keeps each message it receives, then takes 1.5 s to say so. */
async function startSlowSmtpServer() {
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
        setTimeout(() => callback(), 1_500);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => {
    for (const connection of server.connections) connection.close();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { port: (server.server.address() as AddressInfo).port, received, close };
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
    // Sent as the page sends them (page-verified): notified one by one.
    const load = insertLoad(await backend.ready, 1, "stop-during-delivery");
    await waitUntil(() => load.acknowledged.length >= 3);
    await load.stop();
    const sent = load.acknowledged.length;
    // Every message is on the SMTP server, whose answers are still on their way.
    await waitUntil(() => smtp.received.length === sent);

    process.kill(-backend.child.pid!, "SIGINT");
    expect(await waitForGroupExit(backend.child.pid!)).toBe(true);
    expect(backend.output()).toContain("Local backend stopped.");

    const { requests } = await loadRequests(dataDir);
    const statuses = requests.map((request) => request.status?.notification);
    expect(statuses).toEqual(Array(sent).fill("delivered"));
    expect(new Set(smtp.received).size).toBe(sent);
  } finally {
    await smtp.close();
    if (!(await waitForGroupExit(backend.child.pid!, 0)))
      process.kill(-backend.child.pid!, "SIGKILL");
  }
});
