/**
 * One raw HTTP/1.1 exchange over a TCP socket: for requests fetch() refuses to send (a NUL in a
 * header, a space in the path, conflicting framing). Answers the first response parsed leniently,
 * or a null status when the server closed without one.
 */
import net from 'node:net';

export interface RawReply {
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** Everything received, for a failure message. */
  text: string;
}

export function rawExchange(baseUrl: string, bytes: string | Buffer, timeoutMs = 5000): Promise<RawReply> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString('latin1')));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      // A complete response with a Content-Length: no need to wait for the close.
      const r = parse(Buffer.concat(chunks).toString('latin1'));
      const length = Number(r.headers['content-length'] ?? Number.NaN);
      if (r.status !== null && Number.isFinite(length) && Buffer.byteLength(r.body, 'latin1') >= length) finish();
    });
    socket.on('close', finish);
    socket.on('error', finish);
    // Strings are bytes: one char per byte when they fit, UTF-8 otherwise.
    socket.write(typeof bytes === 'string' && !/[\u0100-\uffff]/.test(bytes) ? Buffer.from(bytes, 'latin1') : bytes);
  });
}

function parse(text: string): RawReply {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? '' : Buffer.from(text.slice(split + 4), 'latin1').toString('utf8');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: m?.[1] === undefined ? null : Number(m[1]), headers, body, text };
}
