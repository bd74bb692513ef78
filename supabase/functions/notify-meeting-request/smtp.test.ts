/** The SMTP client against real receivers on 127.0.0.1 (plain, implicit TLS, AUTH, refusals, silence). */
import assert from "node:assert/strict";

import { dotStuff, sendMail, SmtpError, type SmtpSettings } from "./smtp.ts";
import { testCertificates, startSmtpReceiver } from "./test-support/smtp-receiver.ts";

const message = "From: a@example.org\r\nTo: b@example.org\r\nSubject: Hi\r\n\r\nLine one\r\n.hidden dot line\r\n.\r\nend\r\n";
const envelope = { from: "noreply@example-transit.com", to: ["sales@example-transit.com", "ops@example-transit.com"] };

function plain(port: number, extra: Partial<SmtpSettings> = {}): SmtpSettings {
  return { host: "127.0.0.1", port, tls: false, timeoutMs: 2_000, ...extra };
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

Deno.test("dot-stuffing doubles a leading dot on every line and ends with CRLF", () => {
  assert.equal(dotStuff(".a\r\nb\r\n.\r\n..c"), "..a\r\nb\r\n..\r\n...c\r\n");
});

Deno.test("plain SMTP to a local catcher: one message, every recipient, dots intact", async () => {
  const receiver = startSmtpReceiver();
  try {
    const reply = await sendMail(plain(receiver.port), envelope, message);
    assert.match(reply, /^250 /);
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(receiver.received[0]!.to, envelope.to);
    assert.equal(receiver.received[0]!.from, envelope.from);
    assert.equal(receiver.received[0]!.data, message);
  } finally {
    await receiver.close();
  }
});

Deno.test("implicit TLS (port 465 style) with AUTH PLAIN; the certificate is checked", async () => {
  const certificate = await testCertificates();
  const auth = { username: "resend", password: "p@ss wörd", mechanisms: ["PLAIN", "LOGIN"] };
  const receiver = startSmtpReceiver({ tls: { cert: certificate.cert, key: certificate.key }, auth });
  try {
    const settings: SmtpSettings = { host: "localhost", port: receiver.port, tls: true, username: auth.username, password: auth.password, timeoutMs: 5_000 };
    await sendMail({ ...settings, caCerts: [certificate.caCert] }, envelope, message);
    assert.equal(receiver.received.length, 1);
    assert.deepEqual(receiver.received[0]!.auth, { username: "resend", password: "p@ss wörd", mechanism: "PLAIN" });
    // Without trusting the test authority, nothing is sent.
    const untrusted = await failure(sendMail(settings, envelope, message));
    assert.match(untrusted.message, /localhost:\d+/);
    assert.equal(receiver.received.length, 1);
  } finally {
    await receiver.close();
  }
});

Deno.test("AUTH LOGIN when the server offers only that", async () => {
  const receiver = startSmtpReceiver({ auth: { username: "u", password: "secret-password", mechanisms: ["LOGIN"] } });
  try {
    await sendMail(plain(receiver.port, { username: "u", password: "secret-password" }), envelope, message);
    assert.equal(receiver.received[0]!.auth?.mechanism, "LOGIN");
  } finally {
    await receiver.close();
  }
});

Deno.test("wrong credentials: a clear error that does not contain the password", async () => {
  const receiver = startSmtpReceiver({ auth: { username: "u", password: "right-password", mechanisms: ["PLAIN"] } });
  try {
    const error = await failure(sendMail(plain(receiver.port, { username: "u", password: "wrong-password" }), envelope, message));
    assert.match(error.message, /answered AUTH PLAIN \(credentials\) with 535/);
    assert.doesNotMatch(error.message, /wrong-password|d3JvbmctcGFzc3dvcmQ/);
    assert.equal(receiver.received.length, 0);
  } finally {
    await receiver.close();
  }
});

Deno.test("a refused recipient fails the whole send before DATA (a retry reaches everyone)", async () => {
  const receiver = startSmtpReceiver({ refuseRecipient: (address) => address.startsWith("ops@") });
  try {
    const error = await failure(sendMail(plain(receiver.port), envelope, message));
    assert.match(error.message, /RCPT TO:<ops@example-transit.com> with 550/);
    assert.equal(error.replyCode, 550);
    assert.equal(receiver.received.length, 0);
  } finally {
    await receiver.close();
  }
});

Deno.test("no server listening: an error naming the address", async () => {
  const receiver = startSmtpReceiver();
  const port = receiver.port;
  await receiver.close();
  const error = await failure(sendMail(plain(port), envelope, message));
  assert.match(error.message, new RegExp(`Cannot connect to SMTP server 127\\.0\\.0\\.1:${port}`));
});

Deno.test("a server that never answers: a timeout, not a hang", async () => {
  const receiver = startSmtpReceiver({ silent: true });
  try {
    const started = Date.now();
    const error = await failure(sendMail(plain(receiver.port, { timeoutMs: 300 }), envelope, message));
    assert.match(error.message, /did not answer within 0\.3 s \(greeting\)/);
    assert.ok(Date.now() - started < 5_000);
  } finally {
    await receiver.close();
  }
});
