import net from "node:net";
import { startMailCatcher } from "./mail-catcher";

jest.setTimeout(20_000);

/** A plain SMTP conversation: each `say` waits for the server's next reply. */
async function smtpClient(host: string, port: number) {
  const socket = net.connect(port, host);
  let received = "";
  let wake: (() => void) | undefined;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString();
    wake?.();
  });
  const nextReply = async (): Promise<string> => {
    while (!received.includes("\r\n")) await new Promise<void>((resolve) => (wake = resolve));
    const reply = received;
    received = "";
    return reply;
  };
  await nextReply(); // the greeting
  return {
    socket,
    say: async (text: string): Promise<string> => {
      socket.write(text);
      return nextReply();
    },
  };
}

test("a client that resets its connection mid-conversation does not stop the catcher; the next e-mail is caught", async () => {
  const logged: string[] = [];
  const catcher = await startMailCatcher({ log: (line) => logged.push(line) });
  try {
    const dropped = await smtpClient(catcher.host, catcher.port);
    await dropped.say("EHLO client.test\r\n");
    await dropped.say("MAIL FROM:<a@b.test>\r\n");
    dropped.socket.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const client = await smtpClient(catcher.host, catcher.port);
    await client.say("EHLO client.test\r\n");
    await client.say("MAIL FROM:<a@b.test>\r\n");
    await client.say("RCPT TO:<staff@c.test>\r\n");
    expect(await client.say("DATA\r\n")).toMatch(/^354/);
    expect(await client.say("Subject: after the reset\r\n\r\nhello\r\n.\r\n")).toMatch(/^250/);
    client.socket.end("QUIT\r\n");
    const caught = await catcher.waitFor(1, 5_000);
    expect(caught[0]?.headers.get("subject")).toBe("after the reset");
    expect(logged.some((line) => line.startsWith("a mail client's connection failed"))).toBe(true);
  } finally {
    await catcher.close();
  }
});
