/**
 * Servers on 127.0.0.1 for the function's tests: an SMTP receiver (smtp-server, the package the
 * local mail catcher uses) with TLS, AUTH, refused recipients, an outage or silence; a chat
 * webhook; and a throw-away certificate.
 */
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";

import { SMTPServer } from "smtp-server";

export interface ReceiverOptions {
  /** "implicit": TLS from the first byte; "starttls": offered after EHLO; default neither. */
  tls?: { mode: "implicit" | "starttls"; cert: string; key: string };
  /** When set, MAIL FROM is refused until AUTH succeeded with these. */
  auth?: { username: string; password: string; methods: ("PLAIN" | "LOGIN")[] };
  refuseRecipient?: (address: string) => boolean;
  /** Accepts connections and never greets (a server that hangs). */
  silent?: boolean;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as received, dot-stuffing undone. */
  raw: Uint8Array;
  /** Whether the session was encrypted (implicit TLS or after STARTTLS). */
  secure: boolean;
  auth?: { username: string; password: string; method: string };
}

export async function startReceiver(options: ReceiverOptions = {}) {
  const received: ReceivedMail[] = [];
  const state = { down: false };
  const { tls, auth } = options;
  const refuse = (message: string, responseCode: number) =>
    Object.assign(new Error(message), { responseCode });
  const server = new SMTPServer({
    name: "test-receiver.localhost",
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 100,
    secure: tls?.mode === "implicit",
    ...(tls ? { cert: tls.cert, key: tls.key } : { disabledCommands: ["STARTTLS"] }),
    authOptional: !auth,
    authMethods: auth?.methods ?? [],
    allowInsecureAuth: true,
    onConnect(_session, callback) {
      if (!options.silent) callback();
    },
    onAuth({ username = "", password = "", method }, _session, callback) {
      if (username !== auth?.username || password !== auth.password)
        return callback(refuse("Authentication credentials invalid", 535));
      callback(null, { user: { username, password, method } });
    },
    onMailFrom(_address, _session, callback) {
      callback(state.down ? refuse("Service not available, try later", 451) : undefined);
    },
    onRcptTo(address, _session, callback) {
      const refused = options.refuseRecipient?.(address.address);
      callback(refused ? refuse("No such user", 550) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: new Uint8Array(Buffer.concat(chunks)),
          secure: session.secure,
          ...(session.user ? { auth: session.user as ReceivedMail["auth"] } : {}),
        });
        callback();
      });
    },
  });
  server.on("error", () => {}); // a client that drops the connection is what some tests do
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    /** While true, every message is refused (451) before any recipient. */
    set down(down: boolean) {
      state.down = down;
    },
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A throw-away self-signed certificate for localhost and 127.0.0.1, made with openssl. */
export async function testCertificate(): Promise<{ cert: string; key: string }> {
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

/** A chat webhook (Slack style) on 127.0.0.1 that answers `status`; its URL has a secret path. */
export function startChatReceiver(status = 200) {
  const bodies: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    bodies.push(await request.json());
    return new Response(status === 200 ? "ok" : "invalid_token", { status });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/services/T000/B000/secret-part`,
    bodies,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}
