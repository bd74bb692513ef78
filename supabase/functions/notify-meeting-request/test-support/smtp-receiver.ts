/**
 * A minimal SMTP server on 127.0.0.1 for the function's tests: plain or implicit TLS, AUTH
 * PLAIN/LOGIN, recipients it refuses, or a server that never greets. Keeps what it received.
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The DATA as sent, dot-stuffing undone, CRLF line ends, without the final ".". */
  data: string;
  /** user name and password of the AUTH exchange, if any. */
  auth?: { username: string; password: string; mechanism: string };
}

export interface ReceiverOptions {
  tls?: { cert: string; key: string };
  /** Offered mechanisms; when set, MAIL FROM is refused until AUTH succeeded with these. */
  auth?: { username: string; password: string; mechanisms: string[] };
  refuseRecipient?: (address: string) => boolean;
  /** Accept connections but never send a greeting (timeouts). */
  silent?: boolean;
}

export interface SmtpReceiver {
  port: number;
  received: ReceivedMail[];
  /** Every command line received, AUTH payloads included (to check that nothing leaks). */
  commands: string[];
  close(): Promise<void>;
}

const encoder = new TextEncoder();

function decodeBase64(text: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(text), (char) => char.charCodeAt(0)));
}

export function startSmtpReceiver(options: ReceiverOptions = {}): SmtpReceiver {
  const listener: Deno.Listener = options.tls
    ? Deno.listenTls({ hostname: "127.0.0.1", port: 0, cert: options.tls.cert, key: options.tls.key })
    : Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const received: ReceivedMail[] = [];
  const commands: string[] = [];
  const connections = new Set<Deno.Conn>();
  const sessions: Promise<void>[] = [];

  async function session(conn: Deno.Conn): Promise<void> {
    const writer = conn.writable.getWriter();
    const reader = conn.readable.pipeThrough(new TextDecoderStream()).getReader();
    const say = (line: string) => writer.write(encoder.encode(`${line}\r\n`));
    let buffer = "";
    const readLine = async (): Promise<string | undefined> => {
      for (;;) {
        const end = buffer.indexOf("\r\n");
        if (end !== -1) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return line;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    };
    if (options.silent) {
      while ((await readLine()) !== undefined);
      return;
    }
    await say("220 test receiver ready");
    let mail: ReceivedMail | undefined;
    let auth: ReceivedMail["auth"];
    for (;;) {
      const line = await readLine();
      if (line === undefined) return;
      commands.push(line);
      const verb = line.split(" ")[0]!.toUpperCase();
      if (verb === "EHLO") {
        await say("250-test receiver");
        if (options.auth) await say(`250-AUTH ${options.auth.mechanisms.join(" ")}`);
        await say("250 8BITMIME");
      } else if (verb === "AUTH" && options.auth) {
        const [, mechanism, initial] = line.split(" ");
        let username = "";
        let password = "";
        if (mechanism === "PLAIN") {
          [, username = "", password = ""] = decodeBase64(initial ?? "").split("\u0000");
        } else {
          await say("334 VXNlcm5hbWU6");
          username = decodeBase64((await readLine()) ?? "");
          await say("334 UGFzc3dvcmQ6");
          password = decodeBase64((await readLine()) ?? "");
        }
        if (username === options.auth.username && password === options.auth.password) {
          auth = { username, password, mechanism: mechanism ?? "" };
          await say("235 2.7.0 Authentication successful");
        } else {
          await say("535 5.7.8 Authentication credentials invalid");
        }
      } else if (verb === "MAIL") {
        if (options.auth && !auth) {
          await say("530 5.7.0 Authentication required");
          continue;
        }
        mail = { from: /<(.*)>/.exec(line)?.[1] ?? "", to: [], data: "", auth };
        await say("250 OK");
      } else if (verb === "RCPT") {
        const address = /<(.*)>/.exec(line)?.[1] ?? "";
        if (options.refuseRecipient?.(address)) await say("550 5.1.1 No such user");
        else {
          mail?.to.push(address);
          await say("250 OK");
        }
      } else if (verb === "DATA") {
        await say("354 End data with <CR><LF>.<CR><LF>");
        const lines: string[] = [];
        for (;;) {
          const dataLine = await readLine();
          if (dataLine === undefined) return;
          if (dataLine === ".") break;
          lines.push(dataLine.startsWith(".") ? dataLine.slice(1) : dataLine);
        }
        if (mail) received.push({ ...mail, data: `${lines.join("\r\n")}\r\n` });
        mail = undefined;
        await say("250 2.0.0 Queued");
      } else if (verb === "QUIT") {
        await say("221 Bye");
        return;
      } else if (verb === "RSET") {
        mail = undefined;
        await say("250 OK");
      } else {
        await say("502 Command not implemented");
      }
    }
  }

  (async () => {
    for await (const conn of listener) {
      connections.add(conn);
      sessions.push(
        session(conn)
          .catch(() => {})
          .finally(() => {
            connections.delete(conn);
            try {
              conn.close();
            } catch {
              // closed by the client
            }
          }),
      );
    }
  })().catch(() => {});

  return {
    port: (listener.addr as Deno.NetAddr).port,
    received,
    commands,
    async close() {
      listener.close();
      for (const conn of connections) {
        try {
          conn.close();
        } catch {
          // already closed
        }
      }
      await Promise.allSettled(sessions);
    },
  };
}

/**
 * A throw-away certificate authority and a server certificate it signed for 127.0.0.1 and
 * localhost, made with openssl for this test run (rustls refuses a self-signed leaf).
 */
export async function testCertificates(): Promise<{ caCert: string; cert: string; key: string }> {
  const dir = await Deno.makeTempDir();
  const openssl = async (...args: string[]): Promise<void> => {
    const output = await new Deno.Command("openssl", { args, cwd: dir, stdout: "null", stderr: "piped" }).output();
    if (!output.success) throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(output.stderr)}`);
  };
  const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  try {
    await openssl("req", "-x509", ...newKey, "-days", "1", "-subj", "/CN=Test CA", "-keyout", "ca.key", "-out", "ca.pem");
    await openssl("req", ...newKey, "-subj", "/CN=localhost", "-keyout", "key.pem", "-out", "server.csr");
    await Deno.writeTextFile(`${dir}/ext.cnf`, "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n");
    await openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "1", "-extfile", "ext.cnf", "-out", "cert.pem");
    const read = (name: string) => Deno.readTextFile(`${dir}/${name}`);
    return { caCert: await read("ca.pem"), cert: await read("cert.pem"), key: await read("key.pem") };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
