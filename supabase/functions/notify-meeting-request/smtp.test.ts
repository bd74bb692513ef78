/** Sending over SMTP to smtp-server on 127.0.0.1: plain, implicit TLS, STARTTLS, AUTH, refusals. */
import assert from "node:assert/strict";

import { staffEmail } from "./mail.ts";
import { sendMail, type SmtpSettings } from "./smtp.ts";
import { ADDRESSING, readMail } from "./test-support/harness.ts";
import { startReceiver, type ReceiverOptions } from "./test-support/servers.ts";

const TEXT = "Line one\n.hidden dot line\n.\nend\n";
const RECIPIENTS = ADDRESSING.to.map((mailbox) => mailbox.address);
const content = { subject: "Hi", text: TEXT, messageIdLocalPart: "smtp-test" };
const email = staffEmail(content, ADDRESSING, new Date("2026-11-23T17:06:00Z"));
const PASSWORD = "p@ss wörd";
const LOGIN = { username: "u", password: PASSWORD };
const auth = (...methods: ("PLAIN" | "LOGIN")[]) => ({ ...LOGIN, methods });

/** A throw-away self-signed certificate for localhost and 127.0.0.1, made with openssl. */
async function testCertificate(): Promise<{ cert: string; key: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const args = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"];
    args.push("-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", "key.pem");
    args.push("-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-out", "cert.pem");
    const made = await new Deno.Command("openssl", { args, cwd: dir, stderr: "piped" }).output();
    assert.ok(made.success, new TextDecoder().decode(made.stderr));
    const read = (name: string) => Deno.readTextFile(`${dir}/${name}`);
    return { cert: await read("cert.pem"), key: await read("key.pem") };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const certificate = await testCertificate();

function settings(port: number, extra: Partial<SmtpSettings> = {}): SmtpSettings {
  return { host: "127.0.0.1", port, security: "plain", timeoutMs: 2_000, ...extra };
}

Deno.test("plain SMTP: one message to every recipient, dot lines intact", async () => {
  await using receiver = await startReceiver();
  assert.match(await sendMail(settings(receiver.port), email), /^250 /);
  assert.deepEqual(
    receiver.received.map(({ from, to, secure }) => ({ from, to, secure })),
    [{ from: "noreply@example-transit.com", to: RECIPIENTS, secure: false }],
  );
  assert.equal((await readMail(receiver.received[0]!.raw)).text, TEXT);
});

// AUTH PLAIN, or LOGIN when the server offers only that; after TLS, whose certificate is checked.
const sessions: [string, ReceiverOptions, Partial<SmtpSettings>, string][] = [
  [
    "implicit TLS (465)",
    { tls: { mode: "implicit", ...certificate }, auth: auth("PLAIN", "LOGIN") },
    { security: "implicit-tls" },
    "PLAIN",
  ],
  [
    "STARTTLS (2587)",
    { tls: { mode: "starttls", ...certificate }, auth: auth("PLAIN") },
    { security: "starttls" },
    "PLAIN",
  ],
  ["plain SMTP with AUTH LOGIN", { auth: auth("LOGIN") }, {}, "LOGIN"],
];

for (const [label, options, extra, method] of sessions) {
  Deno.test(`${label}: logged in with ${method}`, async () => {
    await using receiver = await startReceiver(options);
    const login = { ...LOGIN, host: "localhost", caCerts: [certificate.cert] };
    await sendMail(settings(receiver.port, { ...login, ...extra }), email);
    assert.deepEqual(receiver.received[0]?.auth, { ...LOGIN, method });
    assert.equal(receiver.received[0]?.secure, options.tls !== undefined);
  });
}

// Every failure is one sentence naming the server, never the password, and nobody gets the
// message: a refused recipient fails it for all, so a retry reaches everyone.
const failures: [string, ReceiverOptions | "none", Partial<SmtpSettings>, RegExp][] = [
  [
    "an untrusted certificate (TLS)",
    { tls: { mode: "implicit", ...certificate } },
    { host: "localhost", security: "implicit-tls" },
    /^Cannot connect to SMTP server localhost:\d+ \(TLS\): /,
  ],
  [
    "an untrusted certificate (STARTTLS)",
    { tls: { mode: "starttls", ...certificate } },
    { host: "localhost", security: "starttls" },
    /^Cannot connect to SMTP server localhost:\d+ \(STARTTLS\): /,
  ],
  [
    "STARTTLS not offered",
    { auth: auth("PLAIN") },
    { ...LOGIN, security: "starttls" },
    /^SMTP server 127\.0\.0\.1:\d+ did not start TLS: it answered STARTTLS with 500 /,
  ],
  [
    "a wrong password",
    { auth: auth("PLAIN") },
    { username: "u", password: "wrong-password" },
    /^SMTP server 127\.0\.0\.1:\d+ refused the user name or password \(AUTH PLAIN\): 535 [^\n]*$/,
  ],
  [
    "one recipient refused",
    { refuseRecipient: (address) => address.startsWith("ops@") },
    {},
    /refused ops@example-transit\.com \(550 No such user\); nothing was sent to anyone$/,
  ],
  [
    "every recipient refused",
    { refuseRecipient: () => true },
    {},
    /refused sales@example-transit\.com \(550 No such user\), ops@example-transit\.com \(550 No such user\); nothing/,
  ],
  ["nothing listening", "none", {}, /^Cannot connect to SMTP server 127\.0\.0\.1:\d+: /],
  [
    "port 587",
    "none",
    { port: 587, timeoutMs: 300 },
    /hosted Edge Functions cannot reach port 587: use 465, or another port with STARTTLS such as 2587\)$/,
  ],
  [
    "a server that never answers",
    { silent: true },
    { timeoutMs: 300 },
    /^SMTP server 127\.0\.0\.1:\d+ did not answer within 0\.3 s \(greeting\)$/,
  ],
];

for (const [label, server, extra, sentence] of failures) {
  Deno.test(`${label}: one sentence, nothing sent`, async () => {
    await using receiver = await startReceiver(server === "none" ? {} : server);
    if (server === "none") await receiver[Symbol.asyncDispose]();
    const started = Date.now();
    const error = await sendMail(settings(receiver.port, extra), email).then(
      () => assert.fail("sent"),
      (error: Error) => error,
    );
    assert.match(error.message, sentence);
    const password = extra.password ?? PASSWORD;
    for (const secret of [password, btoa(password)]) assert.ok(!error.message.includes(secret));
    assert.ok(Date.now() - started < 5_000);
    await new Promise((resolve) => setTimeout(resolve, 100)); // a server would have delivered by now
    assert.equal(receiver.received.length, 0);
  });
}
