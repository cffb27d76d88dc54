/**
 * A certified remote server is reached by the runtime's egress rule: through a proxy that connects to
 * public addresses only (a name certified as public can be pointed at loopback or the cloud's
 * metadata address later), unless the operator let that exact address through; every decision is
 * on the audit trail.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openRemoteConnection } from '@skillhub/live-probe';
import type { EgressEvent } from '@skillhub/sandbox';
import { ServerEgress } from './server-egress';

describe("the runtime's egress rule for a certified remote server", () => {
  const events: EgressEvent[] = [];
  const egress = new ServerEgress({ allowAddresses: ['127.0.0.1:9'], record: (event) => events.push(event) });
  afterAll(() => egress.close());

  const connect = async (url: string): Promise<void> => {
    const target = { kind: 'remote' as const, server: 'docs', transport: 'streamable-http' as const, url };
    const connection = await openRemoteConnection(target, egress.remoteAccess());
    try {
      await new Client({ name: 'spec', version: '1.0.0' }).connect(connection.transport);
    } finally {
      await connection.close();
    }
  };

  // `localhost` resolves through the machine's hosts file.
  it.each(['https://localhost/mcp', 'https://127.0.0.1/mcp', 'https://[::1]/mcp', 'https://169.254.169.254/'])(
    'refuses %s, which is not public now, and records the refusal',
    async (url) => {
      await expect(connect(url)).rejects.toThrow(/Refused by the sandbox's proxy/);
      expect(events.at(-1)).toMatchObject({ server: 'docs', method: 'CONNECT', verdict: 'refused' });
    },
  );

  it("lets through the operator's exact address (nothing listens there: the connection itself fails)", async () => {
    await expect(connect('https://127.0.0.1:9/mcp')).rejects.toThrow();
    expect(events.at(-1)).toMatchObject({ host: '127.0.0.1', port: 9, verdict: 'allowed' });
  });
});
