/**
 * The Python cache against a local PyPI serving wheels built here: the lock pip resolves, an install
 * with every hash checked whose launcher runs the release's console script, a verified reuse with
 * the index gone, and the refusals (a wheel whose bytes are not the locked ones, a tampered entry, a
 * release with no wheel for this machine).
 */
import { spawnSync } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FakeRegistryServer,
  STDLIB_MCP_SERVER,
  buildWheel,
  pypiProjectOf,
  type TestWheel,
} from '@skillhub/package-probe/testing';
import { PythonPackageCache } from './python-cache';
import type { PythonLock } from './python-lock';

const hello = (version: string, body = STDLIB_MCP_SERVER): TestWheel =>
  buildWheel({
    name: 'mcp-hello',
    version,
    files: { 'mcp_hello/__init__.py': body },
    consoleScripts: { 'mcp-hello': 'mcp_hello:main' },
  });

describe('PythonPackageCache', () => {
  const v1 = hello('1.0.0');
  const v2 = hello('2.0.0');
  let registry: FakeRegistryServer;
  let root: string;
  let cache: PythonPackageCache;

  beforeAll(async () => {
    registry = await FakeRegistryServer.start('pypi', {
      npm: [],
      pypi: [pypiProjectOf([v1, v2])],
      wheels: { [v1.path]: v1.bytes, [v2.path]: v2.bytes },
    });
    root = await mkdtemp(join(tmpdir(), 'python-cache-spec-'));
    cache = new PythonPackageCache({ root, index: registry.baseUrl });
  });
  afterAll(async () => {
    await registry.close();
    await rm(root, { recursive: true, force: true });
  });

  /** Runs the installed launcher as the sandbox would, and asks the server for its tools. */
  const toolsOf = async (launcher: string): Promise<unknown> => {
    const python = await cache.interpreter();
    const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`;
    const run = spawnSync(python!, ['-I', '-S', '-B', launcher], { input: request, encoding: 'utf8' });
    return (JSON.parse(run.stdout) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
  };

  it('resolves the exact release to a lock of wheels, each by its sha256', async () => {
    expect(await cache.resolve('mcp-hello', '1.0.0')).toEqual({
      name: 'mcp-hello',
      version: '1.0.0',
      wheels: [{ name: 'mcp-hello', version: '1.0.0', sha256: v1.sha256 }],
    });
  });

  it('installs the lock and runs its console script; the next install is verified from the cache', async () => {
    const lock = await cache.resolve('mcp-hello', '1.0.0');
    const first = await cache.install(lock);
    expect(first.fromCache).toBe(false);
    expect(await toolsOf(first.launcher)).toEqual(['hello']);
    registry.reset();
    const again = await cache.install(lock);
    expect(again).toMatchObject({ fromCache: true, treeDigest: first.treeDigest, launcher: first.launcher });
    expect(registry.paths).toEqual([]);
  });

  it('refuses a lock whose hash is not the served wheel, and installs nothing', async () => {
    const lock: PythonLock = {
      name: 'mcp-hello',
      version: '2.0.0',
      wheels: [{ name: 'mcp-hello', version: '2.0.0', sha256: v1.sha256 }],
    };
    await expect(cache.install(lock)).rejects.toMatchObject({
      code: 'PACKAGE_CACHE.INSTALL_FAILED',
      message: expect.stringMatching(/pip could not install mcp-hello==2\.0\.0: .*(hash|HASH)/),
    });
  });

  it('refuses an entry whose files changed after install', async () => {
    const lock = await cache.resolve('mcp-hello', '1.0.0');
    const installed = await cache.install(lock);
    await appendFile(join(installed.entryDir, 'site', 'mcp_hello', '__init__.py'), '\nimport os; os.system("id")\n');
    await expect(cache.install(lock)).rejects.toMatchObject({
      code: 'PACKAGE_CACHE.TAMPERED',
      message: expect.stringContaining('site/mcp_hello/__init__.py'),
    });
  });

  it('says so for a release that is not on the index', async () => {
    await expect(cache.resolve('mcp-hello', '9.9.9')).rejects.toMatchObject({
      code: 'PACKAGE_CACHE.INSTALL_FAILED',
      message: expect.stringMatching(
        /pip could not install mcp-hello==9\.9\.9: .*(No matching distribution|Could not find)/,
      ),
    });
  });
});
