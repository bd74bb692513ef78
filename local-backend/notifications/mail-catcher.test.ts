import { once } from "node:events";
import net from "node:net";

import nodemailer from "nodemailer";

import { startMailCatcher } from "./mail-catcher";

jest.setTimeout(20_000);

test("a client that resets its connection mid-conversation does not stop the catcher; the next e-mail is caught", async () => {
  const logged: string[] = [];
  const catcher = await startMailCatcher({ log: (line) => logged.push(line) });
  try {
    const dropped = net.connect(catcher.port, catcher.host);
    await once(dropped, "data"); // the greeting
    dropped.write("EHLO client.test\r\nMAIL FROM:<a@b.test>\r\n");
    await once(dropped, "data");
    dropped.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const client = nodemailer.createTransport({ host: catcher.host, port: catcher.port });
    await client.sendMail({ from: "a@b.test", to: "staff@c.test", subject: "after the reset" });
    const caught = await catcher.waitFor(1, 5_000);
    expect(caught[0]?.headers.get("subject")).toBe("after the reset");
    expect(logged.some((line) => line.startsWith("a mail client's connection failed"))).toBe(true);
  } finally {
    await catcher.close();
  }
});
