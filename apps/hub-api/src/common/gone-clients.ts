/**
 * Load shed at the door. When the hub is busier than its clients are patient, connections wait in
 * the kernel's accept queue, and many of them are closed by their clients before the hub reads
 * them. Such a request arrives with its client's FIN right behind it: libuv reads the request in
 * one turn of the event loop and, its read having been short, the end of the stream in the next
 * (epoll still reports the socket readable), so one full turn later the socket has ended. The
 * request is then dropped before Express sees it, at a fraction of what routing, logging and
 * refusing it would cost, so a burst of abandoned requests leaves no backlog for the clients that
 * are still there. A client that is still there waits two `setImmediate`s: microseconds.
 *
 * A client that sent its FIN reads no answer (Node's server does not keep such a socket half
 * open), so nothing a client could receive is lost. Each drop is counted for the operator.
 */
import type { RequestListener } from 'node:http';
import { Counter } from 'prom-client';

export const goneClientRequests = new Counter({
  name: 'skillhub_http_requests_dropped_total',
  help: 'Requests whose client closed the connection before the hub read them, dropped unrouted.',
  registers: [],
});

/** `listener`, called only for requests whose client is still connected a turn after they were read. */
export function dropGoneClients(listener: RequestListener): RequestListener {
  return (req, res) => {
    // The check phase of this turn, then the next turn's poll (which reads a waiting FIN), then its check.
    setImmediate(() =>
      setImmediate(() => {
        if (!req.socket.readableEnded && !req.socket.destroyed) {
          listener(req, res);
          return;
        }
        goneClientRequests.inc();
        req.socket.destroy();
      }),
    );
  };
}
