import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, createConnection, createServer, type Server, type Socket } from 'node:net';
import { dropGoneClients, goneClientRequests } from './gone-clients';

describe('dropGoneClients', () => {
  const routed: string[] = [];
  const http = createHttpServer(
    dropGoneClients((req: IncomingMessage, res) => {
      routed.push(req.url ?? '');
      res.end('routed');
    }),
  );
  // Connections are accepted paused and handed to the HTTP server when the test says so, as a
  // busy hub takes them from its accept queue late.
  const accepted: Socket[] = [];
  const door: Server = createServer({ pauseOnConnect: true }, (socket) => accepted.push(socket));
  let port: number;

  beforeAll(async () => {
    await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
    port = (door.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => door.close(() => resolve())));

  const nextAccepted = async (): Promise<Socket> => {
    while (accepted.length === 0) await new Promise((resolve) => setImmediate(resolve));
    return accepted.shift()!;
  };
  const handOver = (socket: Socket): void => {
    http.emit('connection', socket);
    socket.resume();
  };

  it('drops, unrouted and counted, a request whose client closed the connection before it was read', async () => {
    const before = (await goneClientRequests.get()).values[0]?.value ?? 0;
    const client = createConnection(port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => client.on('close', () => resolve()));
    const answer: Buffer[] = [];
    client.on('data', (chunk: Buffer) => answer.push(chunk));
    // The request and the client's FIN are both sent before the server reads anything.
    await new Promise<void>((resolve) => client.end('GET /abandoned HTTP/1.1\r\nHost: hub\r\n\r\n', resolve));
    const socket = await nextAccepted();
    handOver(socket);
    await closed;

    expect(routed).not.toContain('/abandoned');
    expect(Buffer.concat(answer).toString()).toBe('');
    expect((await goneClientRequests.get()).values[0]?.value).toBe(before + 1);
  });

  it('routes a request whose client is still there, and answers it', async () => {
    const client = createConnection(port, '127.0.0.1');
    const answer: Buffer[] = [];
    client.on('data', (chunk: Buffer) => answer.push(chunk));
    client.write('GET /waiting HTTP/1.1\r\nHost: hub\r\nConnection: close\r\n\r\n');
    handOver(await nextAccepted());
    await new Promise<void>((resolve) => client.on('close', () => resolve()));

    expect(routed).toContain('/waiting');
    expect(Buffer.concat(answer).toString()).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nrouted$/);
  });
});
