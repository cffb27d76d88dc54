/**
 * The live probe of a remote server over https, through its own egress proxy: its tools listed and
 * pinned when the operator lets its address through and its CA is trusted (its resources, which it
 * cannot list, do not cost it its tools); refused with the proxy's reason when its address is not
 * public, as every loopback server is in production.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PackageCache } from '@skillhub/package-cache';
import { type RemoteMcpServer, startRemoteMcpServer } from '@skillhub/testing';
import { probeLiveServer } from './live-probe';
import type { RemoteServerTarget } from './remote-connection';

describe('probeLiveServer, a remote server', () => {
  let dir: string;
  let remote: RemoteMcpServer;
  let packageCache: PackageCache;
  const target = (): RemoteServerTarget => ({
    kind: 'remote',
    server: 'docs',
    transport: 'streamable-http',
    url: remote.url,
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'remote-probe-spec-'));
    // Not used by a remote probe: nothing is installed.
    packageCache = new PackageCache({ root: dir, registry: 'https://registry.npmjs.org' });
    remote = await startRemoteMcpServer([
      { name: 'search', description: 'Searches the docs.', inputSchema: { type: 'object' } },
      { name: 'fetch_page', description: 'Fetches one page.', inputSchema: { type: 'object' } },
    ]);
  });
  afterAll(async () => {
    await remote.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists its tools through the proxy, and keeps them when its resources cannot be listed', async () => {
    const probe = await probeLiveServer(target(), {
      packageCache,
      remote: { allowAddresses: [remote.address], extraCa: remote.caPem },
    });
    expect(probe).toMatchObject({ server: 'docs', outcome: 'listed', resources: [], unlisted: ['resources'] });
    expect(probe.tools.map((tool) => tool.name)).toEqual(['search', 'fetch_page']);
    expect(probe.detail).toMatch(/^its resources\/list failed \(.*ECONNREFUSED.*\); its tools are recorded$/);
  });

  it("is refused, with the proxy's reason, at an address that is not public", async () => {
    const probe = await probeLiveServer(target(), { packageCache, remote: { extraCa: remote.caPem } });
    expect(probe.outcome).toBe('failed');
    expect(probe.tools).toEqual([]);
    expect(probe.detail).toContain(`the remote server at ${remote.url} could not be listed`);
    expect(probe.detail).toMatch(/127\.0\.0\.1:\d+ was refused \(.*loopback/);
  });

  it('fails on a certificate from a CA nobody trusts', async () => {
    const probe = await probeLiveServer(target(), { packageCache, remote: { allowAddresses: [remote.address] } });
    expect(probe.outcome).toBe('failed');
    expect(probe.detail).toMatch(/self[- ]signed|unable to verify|issuer/i);
  });
});
