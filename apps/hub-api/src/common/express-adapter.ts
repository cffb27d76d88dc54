/**
 * Nest's Express adapter, with an HTTP server whose requests and responses are born with
 * Express's prototypes (docs/architecture.md, "The HTTP server and the garbage collector").
 *
 * Express gives every request and response its own prototypes (`Object.setPrototypeOf`) when it
 * takes them. V8 then keeps part of each request's short-lived objects alive through the next
 * young-generation collection and moves them to the old generation: measured on hub-api, 14 KB of
 * every `/api/v1/health` request and 38 KB of every list page, which made the full collections
 * that pause requests come about once a second under load. When the objects already have those
 * prototypes, Express's call changes nothing and nothing is kept.
 */
import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { dropGoneClients } from './gone-clients';

export class HubExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and the tracking of open connections stay Nest's own: the hub uses neither.
    if (options.httpsOptions || options.forceCloseConnections) return super.initHttpServer(options);
    this.setHttpServer(createExpressServer(this.getInstance<Express>()));
  }
}

/**
 * A plain HTTP server for `app` whose requests and responses have `app.request` and
 * `app.response` as prototypes, and which drops requests whose client has already gone.
 */
function createExpressServer(app: Express): Server {
  // Node's IncomingMessage and ServerResponse are constructor functions, run here on an object
  // made with Express's prototype. (Reflect.construct, which would take classes too, kept 1.6 KB
  // of every request to a bare Express app alive again.)
  function ExpressRequest(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>): void {
    IncomingMessage.apply(this, args);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>): void {
    ServerResponse.apply(this, args);
  }
  ExpressResponse.prototype = app.response;
  return createServer(
    {
      IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
    },
    dropGoneClients(app),
  );
}
