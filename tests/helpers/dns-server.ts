import { createSocket, type RemoteInfo } from "node:dgram";
import type { AddressInfo } from "node:net";

/**
 * A minimal authoritative DNS server on 127.0.0.1 (UDP, a random port) for the custom-domain
 * verification tests, which point DNS_RESOLVERS at it. It answers TXT questions from a table:
 * the records set for a name, NXDOMAIN for a name it does not know, NOERROR with no answer for a
 * name set to `[]`, or the failure set for a name (SERVFAIL, REFUSED). Anything but a TXT
 * question of class IN gets NOTIMP. Just enough of RFC 1035 for node:dns's resolver.
 */
export type DnsServer = {
  /** `127.0.0.1:port`, what DNS_RESOLVERS takes. */
  address: string;
  /** The TXT records of `name` (each value one record, split into 255-byte strings), or [] for none. */
  setTxt(name: string, values: string[]): void;
  /** Answers `name` with a failure code instead. */
  fail(name: string, rcode: "SERVFAIL" | "REFUSED"): void;
  /** Forgets `name`: NXDOMAIN again. */
  remove(name: string): void;
  /** The names asked about, in order (lower case). */
  readonly asked: string[];
  close(): Promise<void>;
};

const TYPE_TXT = 16;
const CLASS_IN = 1;
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

type Entry = { txt: string[] } | { rcode: "SERVFAIL" | "REFUSED" };

/** The question's name (lower case), type, class, and where the question section ends. */
function parseQuestion(msg: Buffer): { name: string; type: number; klass: number; end: number } | null {
  if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let at = 12;
  for (;;) {
    if (at >= msg.length) return null;
    const len = msg[at];
    if (len === 0) break;
    if (len > 63 || at + 1 + len > msg.length) return null;
    labels.push(msg.toString("latin1", at + 1, at + 1 + len));
    at += 1 + len;
  }
  at += 1;
  if (at + 4 > msg.length) return null;
  return { name: labels.join(".").toLowerCase(), type: msg.readUInt16BE(at), klass: msg.readUInt16BE(at + 2), end: at + 4 };
}

function txtRdata(value: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  const parts: Buffer[] = [];
  let at = 0;
  do {
    const chunk = bytes.subarray(at, at + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
    at += 255;
  } while (at < bytes.length);
  return Buffer.concat(parts);
}

function answer(query: Buffer, question: { end: number }, rcode: number, records: string[]): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // ID
  const rd = query[2] & 0x01;
  header[2] = 0x80 | 0x04 | rd; // QR, AA, RD as asked
  header[3] = 0x80 | rcode; // RA, RCODE
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const questionSection = query.subarray(12, question.end);
  const answers = records.map((value) => {
    const rdata = txtRdata(value);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(TYPE_TXT, 2);
    rr.writeUInt16BE(CLASS_IN, 4);
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, questionSection, ...answers]);
}

export async function startDnsServer(): Promise<DnsServer> {
  const table = new Map<string, Entry>();
  const asked: string[] = [];
  const socket = createSocket("udp4");
  socket.on("message", (msg: Buffer, from: RemoteInfo) => {
    const q = parseQuestion(msg);
    if (!q) return;
    asked.push(q.name);
    const entry = table.get(q.name);
    let reply: Buffer;
    if (q.type !== TYPE_TXT || q.klass !== CLASS_IN) reply = answer(msg, q, RCODE.NOTIMP, []);
    else if (!entry) reply = answer(msg, q, RCODE.NXDOMAIN, []);
    else if ("rcode" in entry) reply = answer(msg, q, RCODE[entry.rcode], []);
    else reply = answer(msg, q, RCODE.NOERROR, entry.txt);
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  socket.unref();
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    asked,
    setTxt: (name, values) => table.set(name.toLowerCase(), { txt: values }),
    fail: (name, rcode) => table.set(name.toLowerCase(), { rcode }),
    remove: (name) => table.delete(name.toLowerCase()),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
