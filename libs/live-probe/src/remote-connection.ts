/**
 * A connection to a remote MCP server (`sse` or `streamable-http` at an `https` URL), made through an
 * egress proxy of its own (libs/sandbox): the proxy resolves the name, connects only to public
 * addresses or to those its operator let through, and the connection is refused otherwise, with
 * the proxy's reason. Shared by the certifier's live probe and the agent runtime, so a remote server
 * is reached the same way when its tools are recorded and when they are called.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EgressProxy, type EgressEvent, egressFetch } from '@skillhub/sandbox';

export interface RemoteServerTarget {
  kind: 'remote';
  /** The server's name as the skill declares it. */
  server: string;
  transport: 'sse' | 'streamable-http';
  url: string;
}

export interface RemoteAccess {
  /** Exact `address:port` destinations let through although they are not public. */
  allowAddresses?: readonly string[];
  /** PEM certificates trusted besides the system's roots. */
  extraCa?: string | null;
  /** Every connection the proxy allows or refuses. */
  onEvent?: (event: EgressEvent) => void;
}

export interface RemoteConnection {
  /** Closing it closes the proxy too. */
  transport: Transport;
  /** Why the proxy refused the last connection it refused, if it did. */
  refusal(): string | null;
  /** Closes the transport and the proxy. */
  close(): Promise<void>;
}

export async function openRemoteConnection(
  target: RemoteServerTarget,
  access: RemoteAccess,
): Promise<RemoteConnection> {
  const folder = await mkdtemp(join(tmpdir(), 'skillhub-remote-'));
  await chmod(folder, 0o700);
  let refused: string | null = null;
  let proxy: EgressProxy;
  try {
    proxy = await EgressProxy.start({
      name: target.server,
      socketPath: join(folder, `${randomBytes(8).toString('hex')}.sock`),
      allowAddresses: access.allowAddresses ?? [],
      onEvent: (event) => {
        if (event.verdict === 'refused')
          refused = `${event.host}:${event.port} was refused (${event.reason ?? 'no reason'})`;
        access.onEvent?.(event);
      },
    });
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  const fetch = egressFetch({ proxySocket: proxy.socketPath, extraCa: access.extraCa ?? null });
  const url = new URL(target.url);
  const transport =
    target.transport === 'sse'
      ? new SSEClientTransport(url, { fetch })
      : new StreamableHTTPClientTransport(url, { fetch });
  const closeTransport = transport.close.bind(transport);
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await closeTransport().catch(() => undefined);
      await proxy.close();
      await rm(folder, { recursive: true, force: true });
    })());
  transport.close = close;
  return { transport, refusal: () => refused, close };
}
