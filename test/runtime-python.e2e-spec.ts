/**
 * A Python MCP server from PyPI, end to end, against a local PyPI serving wheels built here (PyPI
 * itself is not reachable from these machines): `uvx mcp-hello==1.0.0` is resolved by the certifier
 * to a lock of wheels by sha256, installed from exactly that lock, started in the sandbox and
 * listed, so the skill is certified at standard; the runtime installs the same lock by hash and
 * serves the server's tools, though a newer release is on the index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubClient } from '@skillhub/hub-client';
import {
  FakeRegistries,
  STDLIB_MCP_SERVER,
  buildWheel,
  packedRegistryFixtures,
  pypiProjectOf,
} from '@skillhub/package-probe/testing';
import { sandboxAvailable } from '@skillhub/sandbox';
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { startRuntimeGateway } from './support/runtime-gateway';
import { startTestHub, type TestHub } from './support/test-hub';

const KAZMA_SECRET = 'hub-wide-kazma-secret-for-tests';
const CODE = 'class WeatherSkill:\n    def get_weather(self, city):\n        return {"city": city}\n';

const wheel = (version: string, tool: string) =>
  buildWheel({
    name: 'mcp-hello',
    version,
    files: { 'mcp_hello/__init__.py': STDLIB_MCP_SERVER.replace('"name": "hello"', `"name": "${tool}"`) },
    consoleScripts: { 'mcp-hello': 'mcp_hello:main' },
  });

describe('a hash-locked Python server, certified and run', () => {
  const v1 = wheel('1.0.0', 'hello');
  // Published after the skill pinned 1.0.0: never what runs.
  const v2 = wheel('2.0.0', 'hello_again');
  let dir: string;
  let registries: FakeRegistries;
  let hub: TestHub;
  let client: HubClient;
  const ns = uniqueName('py');
  const name = uniqueName('greeter');

  beforeAll(async () => {
    const sandbox = await sandboxAvailable();
    if (!sandbox.ok) throw new Error(`this test needs the sandbox: ${sandbox.reason}`);
    dir = mkdtempSync(join(tmpdir(), 'skillhub-python-e2e-'));
    registries = await FakeRegistries.start({
      ...packedRegistryFixtures({ fromNodeModules: [] }),
      pypi: [pypiProjectOf([v1, v2])],
      wheels: { [v1.path]: v1.bytes, [v2.path]: v2.bytes },
    });
    hub = await startTestHub({
      worker: true,
      env: {
        KAZMA_SECRET,
        LIVE_PROBE: '1',
        DETONATION: '0',
        NPM_REGISTRY_URL: registries.npm.baseUrl,
        PYPI_REGISTRY_URL: registries.pypi.baseUrl,
        PACKAGE_CACHE_DIR: join(dir, 'hub-packages'),
      },
    });
    client = new HubClient({ baseUrl: hub.baseUrl, token: await hub.token(ns, ['publish', 'manage']) });
  });
  afterAll(async () => {
    await hub?.close();
    await registries?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('records the lock in the certificate at standard, and the runtime serves the locked release', async () => {
    // Signed as Kazma's `hub sign` does, so nothing but the server stands between it and standard.
    const bundle = kazmaBundle({
      author: ns,
      name,
      code: CODE,
      manifest: {
        permissions: [],
        mcp_servers: [{ name: 'hello', type: 'stdio', command: 'uvx', args: ['mcp-hello==1.0.0'] }],
      },
      sign: { secret: KAZMA_SECRET },
    });
    await client.publish(bundle);
    let certification = await client.certification(ns, name, '1.0.0');
    for (let i = 0; i < 900 && certification.status === 'pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      certification = await client.certification(ns, name, '1.0.0');
    }
    expect(certification).toMatchObject({ status: 'certified', level: 'standard' });
    const statement = JSON.parse(
      Buffer.from((await client.certificate(ns, name, '1.0.0')).envelope.payload, 'base64').toString('utf8'),
    ) as { servers: Array<Record<string, unknown>> };
    expect(statement.servers).toEqual([
      expect.objectContaining({
        name: 'hello',
        launch: 'pypi',
        argv: ['uvx', 'mcp-hello==1.0.0'],
        lock: {
          name: 'mcp-hello',
          version: '1.0.0',
          wheels: [{ name: 'mcp-hello', version: '1.0.0', sha256: v1.sha256 }],
        },
        tools: { hello: expect.stringMatching(/^[0-9a-f]{64}$/) },
      }),
    ]);

    const runtime = await startRuntimeGateway(hub, dir, {
      npm_registry: registries.npm.baseUrl,
      pypi_registry: registries.pypi.baseUrl,
      skills: [`${ns}/${name}@^1.0.0`],
      // An unknown tool needs approval, which this headless client cannot give: the operator pre-approves it.
      approvals: { allow: ['mcp__hello__hello'] },
    });
    try {
      await runtime.waitForTool('mcp__hello__hello');
      expect(await runtime.tools()).toEqual(['mcp__hello__hello']);
      const answer = await runtime.mcp.callTool({ name: 'mcp__hello__hello', arguments: { who: 'pins' } });
      expect(answer.content).toEqual([{ type: 'text', text: 'hello pins' }]);
    } finally {
      await runtime.close();
    }
    // The runtime asked the index for the locked wheel, never for the newer release.
    expect(registries.pypi.paths).not.toContain(v2.path);
  });
});
