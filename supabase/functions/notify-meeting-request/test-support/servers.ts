/** An SMTP receiver on 127.0.0.1 (smtp-server): TLS, AUTH, refused recipients, an outage or silence. */
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
  raw: Uint8Array;
  secure: boolean;
  auth?: { username: string; password: string; method: string };
}

export async function startReceiver(options: ReceiverOptions = {}) {
  /** While `down`, every message is refused (451) before any recipient. */
  const receiver = { received: [] as ReceivedMail[], down: false };
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
      callback(receiver.down ? refuse("Service not available, try later", 451) : undefined);
    },
    onRcptTo(address, _session, callback) {
      const refused = options.refuseRecipient?.(address.address);
      callback(refused ? refuse("No such user", 550) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      stream.on("end", () => {
        receiver.received.push({
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
  const port = (server.server.address() as AddressInfo).port;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return Object.assign(receiver, { port, [Symbol.asyncDispose]: close });
}
