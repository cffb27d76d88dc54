/**
 * Requests Node's HTTP parser refuses before any middleware runs (a URL or headers past its
 * limit, malformed HTTP) still get a problem document, as every other refusal does.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

interface ParserSocket extends Duplex {
  _httpMessage?: { headersSent?: boolean } | null;
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: ParserSocket) => {
    // As Node's own handler: answer only when nothing was written on this connection yet.
    if (!socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const detail =
      status === 431
        ? 'The request line and headers are larger than the hub accepts (16 KiB); send long values in a body.'
        : status === 408
          ? 'The request was not received in time.'
          : 'The request is not well-formed HTTP.';
    const body = JSON.stringify({
      type: 'about:blank',
      title: STATUS_CODES[status],
      status,
      detail,
      code: `HTTP.${status}`,
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
