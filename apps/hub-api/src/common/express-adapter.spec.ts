import type { AddressInfo } from 'node:net';
import { IncomingMessage, type Server, ServerResponse } from 'node:http';
import express, { type Express, type Request, type Response } from 'express';
import { HubExpressAdapter } from './express-adapter';

describe('HubExpressAdapter', () => {
  const adapter = new HubExpressAdapter();
  adapter.initHttpServer({});
  const app = adapter.getInstance<Express>();
  const server = adapter.getHttpServer() as Server;
  app.use(express.json());
  app.post('/echo', (req: Request, res: Response) => {
    res
      .status(201)
      .json({ query: req.query, body: req.body as unknown, ip: req.ip, isNodeRequest: req instanceof IncomingMessage });
  });
  app.use((_req: Request, res: Response) => {
    res.status(404).send('none');
  });
  // The prototypes as the server made the objects, before Express sees them.
  const born: { request: object | null; response: object | null }[] = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    born.push({ request: Object.getPrototypeOf(req) as object, response: Object.getPrototypeOf(res) as object });
  });
  let base: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("hands Express requests and responses that already have the app's prototypes", async () => {
    const res = await fetch(`${base}/echo?a=1&b=two`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      query: { a: '1', b: 'two' },
      body: { hello: 'world' },
      ip: '127.0.0.1',
      isNodeRequest: true,
    });
    // Express's own Object.setPrototypeOf then changes nothing (see express-adapter.ts).
    expect(born).toHaveLength(1);
    expect(born[0]!.request).toBe(app.request);
    expect(born[0]!.response).toBe(app.response);
  });

  it('routes and answers as a plain Express server does, over a kept-alive connection', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${base}/nowhere`)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
  });
});
