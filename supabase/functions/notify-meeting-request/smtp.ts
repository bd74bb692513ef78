/**
 * A small SMTP client over Deno's own sockets: implicit TLS (port 465, what hosted Edge
 * Functions allow) or plain TCP (only ever for a catcher on this machine: config.ts refuses
 * plain SMTP to anything but a loopback host). EHLO, AUTH PLAIN or LOGIN, one MAIL FROM,
 * RCPT TO per recipient, DATA with dot-stuffing, QUIT. Every step has a timeout.
 *
 * Hand-written rather than an npm or deno.land library: no download when the function is
 * deployed or tested, nothing but Deno.connect/connectTls (which Supabase's runtime has), and
 * every failure becomes one readable sentence for the delivery record. The password is never
 * part of an error.
 */

export interface SmtpSettings {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (port 465). */
  tls: boolean;
  username?: string;
  password?: string;
  /** The name sent with EHLO. */
  clientName?: string;
  /** Longest wait for any one reply; default 15 s. */
  timeoutMs?: number;
  /** Extra trusted certificates in PEM (tests with a self-signed receiver). */
  caCerts?: string[];
}

export interface Envelope {
  from: string;
  to: readonly string[];
}

export class SmtpError extends Error {
  constructor(message: string, readonly replyCode?: number) {
    super(message);
    this.name = "SmtpError";
  }
}

interface Reply {
  code: number;
  lines: string[];
}

const encoder = new TextEncoder();

class SmtpConnection {
  private buffer = "";
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(private readonly conn: Deno.Conn, private readonly timeoutMs: number, private readonly where: string) {
    this.reader = conn.readable.getReader();
    this.writer = conn.writable.getWriter();
  }

  private withTimeout<T>(promise: Promise<T>, waitingFor: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.close();
        reject(new SmtpError(`SMTP server ${this.where} did not answer within ${this.timeoutMs / 1000} s (${waitingFor})`));
      }, this.timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  private async readLine(): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf("\n");
      if (end !== -1) {
        const line = this.buffer.slice(0, end).replace(/\r$/, "");
        this.buffer = this.buffer.slice(end + 1);
        return line;
      }
      const { value, done } = await this.reader.read();
      if (done) throw new SmtpError(`SMTP server ${this.where} closed the connection`);
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  private async readReplyNow(): Promise<Reply> {
    const lines: string[] = [];
    for (;;) {
      const line = await this.readLine();
      const match = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (!match) throw new SmtpError(`SMTP server ${this.where} sent something that is not a reply: ${line.slice(0, 80)}`);
      lines.push(match[3]!);
      if (match[2] !== "-") return { code: Number(match[1]), lines };
    }
  }

  readReply(waitingFor: string): Promise<Reply> {
    return this.withTimeout(this.readReplyNow(), waitingFor);
  }

  async write(text: string): Promise<void> {
    await this.withTimeout(this.writer.write(encoder.encode(text)), "sending");
  }

  /** Sends a command and checks the reply's code; `shown` replaces secrets in error messages. */
  async command(line: string, expected: readonly number[], shown = line): Promise<Reply> {
    await this.write(`${line}\r\n`);
    const reply = await this.readReply(shown);
    if (!expected.includes(reply.code)) {
      throw new SmtpError(`SMTP server ${this.where} answered ${shown} with ${reply.code} ${reply.lines.join(" ")}`.trim(), reply.code);
    }
    return reply;
  }

  close(): void {
    try {
      this.conn.close();
    } catch {
      // already closed
    }
  }
}

function base64Text(text: string): string {
  return btoa(String.fromCharCode(...encoder.encode(text)));
}

/** RFC 5321 4.5.2: a line that starts with a dot gets a second one. */
export function dotStuff(raw: string): string {
  const normalised = raw.replace(/\r?\n/g, "\r\n");
  const stuffed = normalised.replace(/(^|\r\n)\./g, "$1..");
  return stuffed.endsWith("\r\n") ? stuffed : `${stuffed}\r\n`;
}

async function authenticate(connection: SmtpConnection, extensions: string[], username: string, password: string): Promise<void> {
  const auth = extensions.find((line) => /^AUTH[ =]/i.test(line))?.slice(5).toUpperCase().split(/\s+/) ?? [];
  if (auth.includes("PLAIN") || auth.length === 0) {
    await connection.command(`AUTH PLAIN ${base64Text(`\u0000${username}\u0000${password}`)}`, [235], "AUTH PLAIN (credentials)");
    return;
  }
  if (auth.includes("LOGIN")) {
    await connection.command("AUTH LOGIN", [334]);
    await connection.command(base64Text(username), [334], "AUTH LOGIN (user name)");
    await connection.command(base64Text(password), [235], "AUTH LOGIN (password)");
    return;
  }
  throw new SmtpError(`SMTP server offers neither AUTH PLAIN nor AUTH LOGIN (it offers ${auth.join(", ")})`);
}

/** Sends one message to every envelope recipient; resolves with the server's final reply. */
export async function sendMail(settings: SmtpSettings, envelope: Envelope, raw: string): Promise<string> {
  const where = `${settings.host}:${settings.port}`;
  const timeoutMs = settings.timeoutMs ?? 15_000;
  let conn: Deno.Conn;
  try {
    const connecting = settings.tls
      ? Deno.connectTls({ hostname: settings.host, port: settings.port, caCerts: settings.caCerts })
      : Deno.connect({ hostname: settings.host, port: settings.port });
    let timer: ReturnType<typeof setTimeout> | undefined;
    conn = await Promise.race([
      connecting,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no connection within ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
  } catch (error) {
    throw new SmtpError(`Cannot connect to SMTP server ${where}${settings.tls ? " (TLS)" : ""}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const connection = new SmtpConnection(conn, timeoutMs, where);
  try {
    const greeting = await connection.readReply("greeting");
    if (greeting.code !== 220) throw new SmtpError(`SMTP server ${where} greeted with ${greeting.code} ${greeting.lines.join(" ")}`, greeting.code);
    const ehlo = await connection.command(`EHLO ${settings.clientName ?? "notify-meeting-request"}`, [250]);
    if (settings.username !== undefined && settings.password !== undefined) {
      await authenticate(connection, ehlo.lines.slice(1), settings.username, settings.password);
    }
    await connection.command(`MAIL FROM:<${envelope.from}>`, [250]);
    for (const recipient of envelope.to) await connection.command(`RCPT TO:<${recipient}>`, [250, 251]);
    await connection.command("DATA", [354]);
    await connection.write(`${dotStuff(raw)}.\r\n`);
    const accepted = await connection.readReply("end of DATA");
    if (accepted.code !== 250) {
      throw new SmtpError(`SMTP server ${where} refused the message: ${accepted.code} ${accepted.lines.join(" ")}`, accepted.code);
    }
    await connection.command("QUIT", [221]).catch(() => {});
    return `${accepted.code} ${accepted.lines.join(" ")}`.trim();
  } catch (error) {
    // TLS handshake and socket errors surface on the first read or write.
    if (error instanceof SmtpError) throw error;
    throw new SmtpError(`SMTP conversation with ${where} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    connection.close();
  }
}
