/**
 * The JSON-lines trail: a file descriptor of its own (stdout, or AUDIT_LOG's file opened for
 * appending), written synchronously, so a record is out of the process before the answer it
 * describes is sent, and no log level applies to it.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export interface AuditSink {
  /** Writes one whole line; throws when it cannot. */
  write(line: string): void;
  close(): void;
}

const STDOUT = 1;
/** How often a full pipe (EAGAIN) is waited for, 1 ms each, before the write gives up. */
const AGAIN_TRIES = 1_000;

export function openSink(target: string): AuditSink {
  const fd = target === 'stdout' ? STDOUT : openSync(target, 'a', 0o640);
  const owned = fd !== STDOUT;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  return {
    write(line: string): void {
      let buf = Buffer.from(line, 'utf8');
      let tries = 0;
      while (buf.length > 0) {
        try {
          buf = buf.subarray(writeSync(fd, buf));
        } catch (err) {
          // stdout may be a non-blocking pipe: wait for the reader rather than lose the record.
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || ++tries > AGAIN_TRIES) throw err;
          Atomics.wait(pause, 0, 0, 1);
        }
      }
    },
    close(): void {
      if (owned) closeSync(fd);
    },
  };
}
