import { remoteTransport } from './skill-connector';

const remote = (url: string) => ({ kind: 'remote' as const, transport: 'streamable-http' as const, url });

describe("a certified remote server's address when the runtime connects", () => {
  // `localhost` resolves through the machine's hosts file: a name certified as public can be pointed here later.
  it.each(['https://localhost/mcp', 'https://127.0.0.1/mcp', 'https://[::1]/mcp', 'https://169.254.169.254/'])(
    'refuses %s, which is not public now',
    async (url) => {
      await expect(remoteTransport(remote(url))).rejects.toThrow(/resolves to .* only public addresses/);
    },
  );

  it('connects to a public address', async () => {
    await expect(remoteTransport(remote('https://8.8.8.8/mcp'))).resolves.toBeDefined();
  });
});
