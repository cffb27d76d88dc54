/** The cache against a local npm registry serving real tarballs (packed from node_modules or given as data). */
import { access, appendFile, chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FakeRegistryServer,
  packSynthetic,
  packedRegistryFixtures,
  type SyntheticPackage,
} from '@skillhub/package-probe/testing';
import { privateCa } from '@skillhub/testing';
import { PackageCache, type InstalledPackage } from './package-cache';
import {
  PACKAGE_CACHE_INSTALL_FAILED,
  PACKAGE_CACHE_INTEGRITY_MISMATCH,
  PACKAGE_CACHE_INVALID_SPEC,
  PACKAGE_CACHE_NO_BIN,
  PACKAGE_CACHE_TAMPERED,
} from './package-cache.errors';
import type { PackageSpec } from './package-spec';

const MEMORY = '@modelcontextprotocol/server-memory';

const synthetic = (
  name: string,
  packageJson: Record<string, unknown>,
  files: Record<string, string> = {},
): SyntheticPackage => ({
  name,
  version: '1.0.0',
  files: { 'package.json': JSON.stringify({ name, version: '1.0.0', ...packageJson }), ...files },
});

const SCRIPTED = synthetic(
  'scripted-tool',
  {
    bin: 'cli.js',
    scripts: {
      preinstall: "node -e \"require('fs').writeFileSync('ran','')\"",
      postinstall: "node -e \"require('fs').writeFileSync('ran','')\"",
    },
  },
  { 'cli.js': '#!/usr/bin/env node\n', 'lib/data.txt': 'data\n' },
);
const NO_BIN = synthetic('library-only', {}, { 'index.js': 'module.exports = 1;\n' });
const MANY_BINS = synthetic(
  'many-bins',
  { bin: { helper: 'helper.js', 'many-bins': 'main.js' } },
  { 'main.js': '', 'helper.js': '' },
);
const AMBIGUOUS = synthetic('ambiguous-bins', { bin: { a: 'a.js', b: 'b.js' } }, { 'a.js': '', 'b.js': '' });
const ESCAPING = synthetic('escaping-bin', { bin: '../../../etc/passwd' });
const TAMPER = synthetic('tamper-target', { bin: 'cli.js' }, { 'cli.js': 'console.log(1);\n' });
const SYNTHETIC = [SCRIPTED, NO_BIN, MANY_BINS, AMBIGUOUS, ESCAPING, TAMPER];

const specOf = (pkg: SyntheticPackage): PackageSpec => ({
  name: pkg.name,
  version: pkg.version,
  integrity: packSynthetic(pkg).integrity,
});

const codeOf = async (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: { code?: string; message: string }) => `${error.code}: ${error.message}`,
  );

describe('PackageCache', () => {
  const fixtures = packedRegistryFixtures({ fromNodeModules: [MEMORY], synthetic: SYNTHETIC });
  const memory: PackageSpec = {
    name: MEMORY,
    version: '2026.8.31',
    integrity: fixtures.npm.find((p) => p.name === MEMORY)?.versions?.['2026.8.31']?.dist.integrity as string,
  };
  let registry: FakeRegistryServer;
  let root: string;
  let cache: PackageCache;

  beforeAll(async () => {
    registry = await FakeRegistryServer.start('npm', fixtures);
    root = await mkdtemp(join(tmpdir(), 'package-cache-spec-'));
    cache = new PackageCache({ root, registry: registry.baseUrl });
  });
  afterAll(async () => {
    await registry.close();
    await rm(root, { recursive: true, force: true });
  });

  describe('a real MCP server with its dependencies', () => {
    let installed: InstalledPackage;

    beforeAll(async () => {
      installed = await cache.install(memory);
    });

    it('installs it and resolves its program to an absolute file inside the package', async () => {
      expect(installed).toMatchObject({
        name: MEMORY,
        version: '2026.8.31',
        integrity: memory.integrity,
        fromCache: false,
      });
      expect(installed.packageDir).toBe(join(installed.entryDir, 'node_modules', MEMORY));
      expect(installed.bin).toBe(join(installed.packageDir, 'dist/index.js'));
      expect(installed.treeDigest).toMatch(/^[0-9a-f]{64}$/);
      await access(installed.bin);
      await access(join(installed.entryDir, 'node_modules/@modelcontextprotocol/sdk/package.json'));
      // Dependencies only: no .bin links, nothing outside node_modules but the entry's own files.
      expect((await readdir(installed.entryDir)).sort()).toEqual([
        '.skillhub-entry.json',
        'node_modules',
        'package-lock.json',
        'package.json',
      ]);
      await expect(access(join(installed.entryDir, 'node_modules/.bin'))).rejects.toThrow();
    });

    it('serves a second install from the cache, with the registry closed', async () => {
      const closedRegistry = await FakeRegistryServer.start('npm', { npm: [], pypi: [] });
      const cacheOnDeadRegistry = new PackageCache({ root, registry: closedRegistry.baseUrl });
      await closedRegistry.close();
      const started = Date.now();

      const again = await cacheOnDeadRegistry.install(memory);

      expect(again).toEqual({ ...installed, fromCache: true });
      // No registry round trips: well under the first install, though a busy CI machine took 5.7 s.
      expect(Date.now() - started).toBeLessThan(20_000);
    });
  });

  it('never runs install scripts, whatever npm configuration the host process has', async () => {
    process.env.npm_config_ignore_scripts = 'false';
    process.env.npm_config_registry = 'http://127.0.0.1:9/';
    try {
      const installed = await cache.install(specOf(SCRIPTED));

      expect(installed.bin).toBe(join(installed.packageDir, 'cli.js'));
      expect(await readdir(installed.packageDir)).not.toContain('ran');
      expect(await readdir(installed.entryDir)).not.toContain('ran');
    } finally {
      delete process.env.npm_config_ignore_scripts;
      delete process.env.npm_config_registry;
    }
  });

  describe('behind a TLS-inspecting proxy with a private CA, as in many companies', () => {
    let tls: string;
    let httpsRegistry: FakeRegistryServer;

    beforeAll(async () => {
      tls = await mkdtemp(join(tmpdir(), 'package-cache-tls-'));
      const ca = privateCa(tls);
      // The chain a proxy presents: its certificate for the host, and its own CA.
      httpsRegistry = await FakeRegistryServer.start('npm', fixtures, { key: ca.leafKey, cert: ca.chain });
      await mkdir(join(tls, 'plain-home'));
      await mkdir(join(tls, 'operator-home'));
      // The operator's own npm settings: their CA, and a setting that must not turn install scripts on.
      await writeFile(join(tls, 'operator-home', '.npmrc'), `cafile=${ca.caFile}\nignore-scripts=false\n`);
    });
    afterAll(async () => {
      await httpsRegistry.close();
      await rm(tls, { recursive: true, force: true });
    });

    it("installs with the operator's npm settings, their CA among them, never their script settings", async () => {
      const operatorCache = new PackageCache({
        root: join(tls, 'operator-cache'),
        registry: httpsRegistry.baseUrl,
        operatorEnv: { HOME: join(tls, 'operator-home'), SKILLHUB_UNRELATED_SECRET: 'never passed' },
      });

      const installed = await operatorCache.install(specOf(SCRIPTED));

      expect(installed.fromCache).toBe(false);
      expect(await readdir(installed.packageDir)).not.toContain('ran');
      expect(httpsRegistry.paths).toContain('/scripted-tool');
    });

    it('says what to set when npm does not trust the registry certificate', async () => {
      const untrusting = new PackageCache({
        root: join(tls, 'plain-cache'),
        registry: httpsRegistry.baseUrl,
        // npm retries a failed fetch for a minute by default; the operator's own setting says once.
        operatorEnv: { HOME: join(tls, 'plain-home'), npm_config_fetch_retries: '0' },
      });

      const failure = await codeOf(untrusting.install(specOf(NO_BIN)));

      expect(failure).toMatch(
        new RegExp(`^${PACKAGE_CACHE_INSTALL_FAILED}: npm could not install library-only@1.0.0: `),
      );
      expect(failure).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|self-signed certificate in certificate chain/);
      expect(failure).toContain("npm does not trust the registry's TLS certificate");
      expect(failure).toContain('cafile');
      expect(failure).toContain('NODE_EXTRA_CA_CERTS');
    });
  });

  it('refuses a package whose registry tarball is not the pinned one, and keeps nothing of it', async () => {
    const pinned = { ...specOf(TAMPER), integrity: `sha512-${Buffer.alloc(64, 1).toString('base64')}` };

    expect(await codeOf(cache.install(pinned))).toBe(
      `${PACKAGE_CACHE_INTEGRITY_MISMATCH}: tamper-target@1.0.0: the registry's tarball has integrity ${specOf(TAMPER).integrity}, not the pinned ${pinned.integrity}`,
    );
    expect(await readdir(join(root, '_staging'))).toEqual([]);
  });

  describe('a cache entry changed after it was installed', () => {
    let installed: InstalledPackage;
    const record = (): string => join(installed.entryDir, '.skillhub-entry.json');

    beforeEach(async () => {
      await rm(join(root, 'entries'), { recursive: true, force: true });
      installed = await cache.install(specOf(TAMPER));
    });

    it('is refused when a file was modified', async () => {
      await appendFile(installed.bin, 'require("child_process").execSync("id");\n');

      expect(await codeOf(cache.install(specOf(TAMPER)))).toBe(
        `${PACKAGE_CACHE_TAMPERED}: the cached tamper-target@1.0.0 was changed after it was installed: node_modules/tamper-target/cli.js was modified`,
      );
    });

    it('is refused when a file was added, or made executable', async () => {
      await writeFile(join(installed.packageDir, 'extra.js'), '');
      await chmod(join(installed.packageDir, 'package.json'), 0o755);

      expect(await codeOf(cache.install(specOf(TAMPER)))).toBe(
        `${PACKAGE_CACHE_TAMPERED}: the cached tamper-target@1.0.0 was changed after it was installed: node_modules/tamper-target/extra.js was added; node_modules/tamper-target/package.json was modified`,
      );
    });

    it('is refused when its record was removed or rewritten for another package', async () => {
      const original = await readFile(record(), 'utf8');
      await rm(record());
      const removed = await codeOf(cache.install(specOf(TAMPER)));
      await writeFile(record(), original.replace('"version":"1.0.0"', '"version":"1.0.1"'));
      const rewritten = await codeOf(cache.install(specOf(TAMPER)));

      expect(removed).toContain(`${PACKAGE_CACHE_TAMPERED}: `);
      expect(removed).toContain('.skillhub-entry.json was removed');
      expect(rewritten).toContain('.skillhub-entry.json does not describe this package');
    });

    it('is refused when a symlink replaced a file', async () => {
      await rm(installed.bin);
      await symlink('/etc/passwd', installed.bin);

      expect(await codeOf(cache.install(specOf(TAMPER)))).toContain(
        'node_modules/tamper-target/cli.js is not a regular file',
      );
    });
  });

  it('picks the program named after the package among several, and refuses a package without one', async () => {
    const many = await cache.install(specOf(MANY_BINS));

    expect(many.bin).toBe(join(many.packageDir, 'main.js'));
    expect(await codeOf(cache.install(specOf(NO_BIN)))).toBe(
      `${PACKAGE_CACHE_NO_BIN}: library-only@1.0.0 has no program (no "bin" in its package.json)`,
    );
    expect(await codeOf(cache.install(specOf(AMBIGUOUS)))).toBe(
      `${PACKAGE_CACHE_NO_BIN}: ambiguous-bins@1.0.0 has 2 programs and none is named ambiguous-bins`,
    );
    expect(await codeOf(cache.install(specOf(ESCAPING)))).toBe(
      `${PACKAGE_CACHE_NO_BIN}: escaping-bin@1.0.0 names a program outside its folder: ../../../etc/passwd`,
    );
  });

  it('says what npm said when the package does not exist', async () => {
    const missing = { name: 'no-such-package', version: '1.0.0', integrity: specOf(TAMPER).integrity };

    expect(await codeOf(cache.install(missing))).toMatch(
      new RegExp(`^${PACKAGE_CACHE_INSTALL_FAILED}: npm could not install no-such-package@1.0.0: .*404`),
    );
  });

  it('refuses a reference that is not exact before asking anyone', async () => {
    registry.reset();

    expect(await codeOf(cache.install({ ...memory, name: '../../etc' }))).toContain(`${PACKAGE_CACHE_INVALID_SPEC}: `);
    expect(await codeOf(cache.install({ ...memory, version: 'latest' }))).toContain(`${PACKAGE_CACHE_INVALID_SPEC}: `);
    expect(registry.paths).toEqual([]);
  });

  it('installs a reference once when asked for it twice at the same time', async () => {
    const many = synthetic('concurrent-tool', { bin: 'x.js' }, { 'x.js': '' });
    const local = await FakeRegistryServer.start(
      'npm',
      packedRegistryFixtures({ synthetic: [many], base: { npm: [], pypi: [] } }),
    );
    try {
      const shared = new PackageCache({ root, registry: local.baseUrl });
      const [first, second] = await Promise.all([shared.install(specOf(many)), shared.install(specOf(many))]);

      expect(second).toEqual(first);
      expect(local.paths.filter((path) => path.endsWith('.tgz'))).toHaveLength(1);
    } finally {
      await local.close();
    }
  });
});
