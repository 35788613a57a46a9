/**
 * An OTLP/HTTP receiver that accepts every export and keeps nothing: the collector of the
 * tracing scenario, in a process of its own so that its work lands on neither side.
 *
 *   PORT=… node scripts/bench/sink.ts
 */
import { createServer } from 'node:http';

let chunks = 0;
const server = createServer((req, res) => {
  req.on('data', () => {
    chunks += 1;
  });
  req.on('end', () => {
    res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/x-protobuf' });
    res.end();
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');

const stop = () => {
  process.stderr.write(`sink: ${chunks} chunks received\n`);
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
