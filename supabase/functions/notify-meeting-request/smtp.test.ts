/** Sending over SMTP against smtp-server on 127.0.0.1: plain, implicit TLS, STARTTLS, AUTH, refusals, silence. */
import assert from "node:assert/strict";

import { readMail } from "../../../local-backend/notifications/read-mail.ts";
import { sendMail, SmtpError, type SmtpSettings } from "./smtp.ts";
import { staffEmail } from "./staff-email.ts";
import { startReceiver, startSilentServer, testCertificates } from "./test-support/receiver.ts";

const TEXT = "Line one\n.hidden dot line\n.\nend\n";
const email = staffEmail(
  { subject: "Hi", text: TEXT, messageIdLocalPart: "smtp-test" },
  {
    from: { address: "noreply@example-transit.com" },
    to: [{ address: "sales@example-transit.com" }, { address: "ops@example-transit.com" }],
  },
  new Date("2026-11-23T17:06:00Z"),
);
const RECIPIENTS = ["sales@example-transit.com", "ops@example-transit.com"];

function plain(port: number, extra: Partial<SmtpSettings> = {}): SmtpSettings {
  return { host: "127.0.0.1", port, security: "plain", timeoutMs: 2_000, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<SmtpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SmtpError, `expected an SmtpError, got ${String(error)}`);
    return error;
  }
  throw new Error("expected sendMail to fail");
}

Deno.test(
  "plain SMTP to a local catcher: one message, every recipient, lines starting with a dot intact",
  async () => {
    const receiver = await startReceiver();
    try {
      assert.match(await sendMail(plain(receiver.port), email), /^250 /);
      assert.equal(receiver.received.length, 1);
      assert.deepEqual(receiver.received[0]!.to, RECIPIENTS);
      assert.equal(receiver.received[0]!.from, "noreply@example-transit.com");
      assert.equal(receiver.received[0]!.secure, false);
      assert.equal((await readMail(receiver.received[0]!.raw)).body, TEXT);
    } finally {
      await receiver.close();
    }
  },
);

Deno.test("implicit TLS (port 465 style) with AUTH PLAIN; the certificate is checked", async () => {
  const certificate = await testCertificates();
  const auth = {
    username: "resend",
    password: "p@ss wörd",
    methods: ["PLAIN", "LOGIN"] as ("PLAIN" | "LOGIN")[],
  };
  const receiver = await startReceiver({ tls: { mode: "implicit", ...certificate }, auth });
  try {
    const settings: SmtpSettings = {
      host: "localhost",
      port: receiver.port,
      security: "implicit-tls",
      username: auth.username,
      password: auth.password,
      timeoutMs: 5_000,
    };
    await sendMail({ ...settings, caCerts: [certificate.caCert] }, email);
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(receiver.received[0]!.auth, {
      username: "resend",
      password: "p@ss wörd",
      method: "PLAIN",
    });
    assert.equal(receiver.received[0]!.secure, true);
    // Without trusting the test authority, nothing is sent.
    const untrusted = await failure(sendMail(settings, email));
    assert.match(untrusted.message, /^Cannot connect to SMTP server localhost:\d+ \(TLS\): /);
    assert.equal(receiver.received.length, 1);
  } finally {
    await receiver.close();
  }
});

Deno.test(
  "STARTTLS on another port (2587 style): upgraded before AUTH, the certificate checked; refused if not offered",
  async () => {
    const certificate = await testCertificates();
    const auth = { username: "u", password: "secret-password", methods: ["PLAIN"] as "PLAIN"[] };
    const receiver = await startReceiver({ tls: { mode: "starttls", ...certificate }, auth });
    const withoutTls = await startReceiver({ auth });
    try {
      const settings: SmtpSettings = {
        host: "localhost",
        port: receiver.port,
        security: "starttls",
        username: "u",
        password: "secret-password",
        timeoutMs: 5_000,
      };
      await sendMail({ ...settings, caCerts: [certificate.caCert] }, email);
      assert.equal(receiver.received.length, 1);
      assert.equal(receiver.received[0]!.auth?.username, "u");
      assert.equal(receiver.received[0]!.secure, true);
      const untrusted = await failure(sendMail(settings, email));
      assert.match(
        untrusted.message,
        new RegExp(`^Cannot connect to SMTP server localhost:${receiver.port} \\(STARTTLS\\): `),
      );
      const notOffered = await failure(sendMail({ ...settings, port: withoutTls.port }, email));
      assert.match(
        notOffered.message,
        new RegExp(
          `^SMTP server localhost:${withoutTls.port} did not start TLS: it answered STARTTLS with 500 `,
        ),
      );
      assert.doesNotMatch(notOffered.message, /secret-password/);
      assert.equal(receiver.received.length + withoutTls.received.length, 1);
    } finally {
      await receiver.close();
      await withoutTls.close();
    }
  },
);

Deno.test("AUTH LOGIN when the server offers only that", async () => {
  const receiver = await startReceiver({
    auth: { username: "u", password: "secret-password", methods: ["LOGIN"] },
  });
  try {
    await sendMail(plain(receiver.port, { username: "u", password: "secret-password" }), email);
    assert.equal(receiver.received[0]!.auth?.method, "LOGIN");
  } finally {
    await receiver.close();
  }
});

Deno.test("wrong credentials: one sentence that does not contain the password", async () => {
  const receiver = await startReceiver({
    auth: { username: "u", password: "right-password", methods: ["PLAIN"] },
  });
  try {
    const error = await failure(
      sendMail(plain(receiver.port, { username: "u", password: "wrong-password" }), email),
    );
    assert.match(
      error.message,
      new RegExp(
        `^SMTP server 127\\.0\\.0\\.1:${receiver.port} refused the user name or password \\(AUTH PLAIN\\): 535 `,
      ),
    );
    assert.doesNotMatch(error.message, /wrong-password|d3JvbmctcGFzc3dvcmQ|\n/);
    assert.equal(error.replyCode, 535);
    assert.equal(receiver.received.length, 0);
  } finally {
    await receiver.close();
  }
});

Deno.test(
  "a refused recipient fails the whole message: nobody gets it, so a retry reaches everyone",
  async () => {
    const receiver = await startReceiver({
      refuseRecipient: (address) => address.startsWith("ops@"),
    });
    const refusingAll = await startReceiver({ refuseRecipient: () => true });
    try {
      const error = await failure(sendMail(plain(receiver.port), email));
      assert.match(
        error.message,
        /refused ops@example-transit\.com \(550 No such user\); nothing was sent to anyone$/,
      );
      assert.equal(error.replyCode, 550);
      const all = await failure(sendMail(plain(refusingAll.port), email));
      assert.match(
        all.message,
        /refused sales@example-transit\.com \(550 No such user\), ops@example-transit\.com \(550 No such user\); nothing/,
      );
      await new Promise((resolve) => setTimeout(resolve, 200)); // the server would have delivered by now
      assert.equal(receiver.received.length + refusingAll.received.length, 0);
    } finally {
      await receiver.close();
      await refusingAll.close();
    }
  },
);

Deno.test(
  "no server listening: an error naming the address; on 587, why a hosted function cannot use it",
  async () => {
    const receiver = await startReceiver();
    const port = receiver.port;
    await receiver.close();
    const error = await failure(sendMail(plain(port), email));
    assert.match(
      error.message,
      new RegExp(`^Cannot connect to SMTP server 127\\.0\\.0\\.1:${port}: `),
    );
    const blocked = await failure(sendMail(plain(587, { timeoutMs: 300 }), email));
    assert.match(
      blocked.message,
      /hosted Edge Functions cannot reach port 587: use 465, or another port with STARTTLS such as 2587\)$/,
    );
  },
);

Deno.test("a server that never answers: a timeout, not a hang", async () => {
  const silent = startSilentServer();
  try {
    const started = Date.now();
    const error = await failure(sendMail(plain(silent.port, { timeoutMs: 300 }), email));
    assert.match(error.message, /did not answer within 0\.3 s \(greeting\)$/);
    assert.ok(Date.now() - started < 5_000);
  } finally {
    await silent.close();
  }
});
