/**
 * The gateway over stdio, opened before the rest of the runtime loads: a client that spawns the
 * runtime (an IDE, the MCP Inspector) times its handshake out after a few seconds, and loading Nest,
 * the installer and the sandbox takes most of one. `initialize` is answered at once; every other
 * request waits for the gateway, which the runtime hands over as soon as it has built it.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type Gateway, gatewayServer } from './gateway';

/** Hands the built gateway to the stdio client's waiting requests. */
export type ServeOverStdio = (gateway: Gateway) => void;

export async function openStdioGateway(): Promise<ServeOverStdio> {
  let serve!: ServeOverStdio;
  const built = new Promise<Gateway>((resolve) => (serve = resolve));
  await gatewayServer(built).connect(new StdioServerTransport());
  // A client writes `initialize` as it spawns the runtime: one turn of the event loop reads and
  // answers it before the synchronous module loading that follows would hold it back.
  await new Promise<void>((resolve) => setImmediate(resolve));
  return serve;
}
