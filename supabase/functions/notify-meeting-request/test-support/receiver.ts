/**
 * SMTP servers on 127.0.0.1 for the function's tests: smtp-server (the npm package the local
 * mail catcher uses too) with implicit TLS, STARTTLS or neither, AUTH, refused recipients; and
 * a server that accepts connections and never says a word (timeouts).
 */
import type { AddressInfo } from "node:net";

import { SMTPServer, type SMTPServerOptions } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as received, dot-stuffing undone. */
  raw: Uint8Array;
  /** Whether the session was encrypted (implicit TLS or after STARTTLS). */
  secure: boolean;
  /** The user name, password and mechanism of the AUTH exchange, if any. */
  auth?: { username: string; password: string; method: string };
}

export interface ReceiverOptions {
  /** "implicit": TLS from the first byte; "starttls": offered after EHLO; default neither. */
  tls?: { mode: "implicit" | "starttls"; cert: string; key: string };
  /** When set, MAIL FROM is refused until AUTH succeeded with these. */
  auth?: { username: string; password: string; methods: ("PLAIN" | "LOGIN")[] };
  refuseRecipient?: (address: string) => boolean;
}

export interface Receiver {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

async function listening(server: SMTPServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return (server.server.address() as AddressInfo).port;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const received: ReceivedMail[] = [];
  const { tls, auth } = options;
  const settings: SMTPServerOptions = {
    name: "test-receiver.localhost",
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 100,
    secure: tls?.mode === "implicit",
    ...(tls ? { cert: tls.cert, key: tls.key } : { disabledCommands: ["STARTTLS"] }),
    authOptional: !auth,
    authMethods: auth?.methods ?? [],
    allowInsecureAuth: true,
    onAuth(attempt, _session, callback) {
      const { username = "", password = "", method } = attempt;
      if (auth && username === auth.username && password === auth.password)
        callback(null, { user: { username, password, method } });
      else
        callback(
          Object.assign(new Error("Authentication credentials invalid"), { responseCode: 535 }),
        );
    },
    onRcptTo(address, _session, callback) {
      if (options.refuseRecipient?.(address.address))
        callback(Object.assign(new Error("No such user"), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: concat(chunks),
          secure: session.secure,
          ...(session.user ? { auth: session.user as ReceivedMail["auth"] } : {}),
        });
        callback();
      });
    },
  };
  const server = new SMTPServer(settings);
  server.on("error", () => {}); // a client that drops the connection is what some tests do
  const port = await listening(server);
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Accepts connections and never greets (a server that hangs). */
export function startSilentServer(): { port: number; close(): Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const connection of listener) connections.push(connection);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async close() {
      listener.close();
      for (const connection of connections) {
        try {
          connection.close();
        } catch {
          // closed by the client
        }
      }
      await accepting;
    },
  };
}

/**
 * A throw-away certificate authority and a server certificate it signed for 127.0.0.1 and
 * localhost, made with openssl for this test run.
 */
export async function testCertificates(): Promise<{ caCert: string; cert: string; key: string }> {
  const dir = await Deno.makeTempDir();
  const openssl = async (...args: string[]): Promise<void> => {
    const output = await new Deno.Command("openssl", {
      args,
      cwd: dir,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!output.success)
      throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(output.stderr)}`);
  };
  const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  try {
    await openssl(
      "req",
      "-x509",
      ...newKey,
      "-days",
      "1",
      "-subj",
      "/CN=Test CA",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
    );
    await openssl(
      "req",
      ...newKey,
      "-subj",
      "/CN=localhost",
      "-keyout",
      "key.pem",
      "-out",
      "server.csr",
    );
    await Deno.writeTextFile(
      `${dir}/ext.cnf`,
      "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
    );
    await openssl(
      "x509",
      "-req",
      "-in",
      "server.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      "1",
      "-extfile",
      "ext.cnf",
      "-out",
      "cert.pem",
    );
    const read = (name: string) => Deno.readTextFile(`${dir}/${name}`);
    return {
      caCert: await read("ca.pem"),
      cert: await read("cert.pem"),
      key: await read("key.pem"),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
