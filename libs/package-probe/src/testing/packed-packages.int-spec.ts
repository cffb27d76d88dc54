import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readBundle } from '@skillhub/bundle';
import { FakeRegistryServer } from './fake-registry.server';
import { REPO_NODE_MODULES, packSynthetic, packedRegistryFixtures, tarballPath } from './packed-packages';
import { FIXTURE_PACKAGES, type NpmPackument, type NpmVersionDocument } from './registry-fixtures';

const MEMORY = '@modelcontextprotocol/server-memory';
const FILESYSTEM = '@modelcontextprotocol/server-filesystem';

const synthetic = {
  name: 'synthetic-echo-mcp',
  version: '1.0.0',
  files: {
    'package.json': JSON.stringify({
      name: 'synthetic-echo-mcp',
      version: '1.0.0',
      bin: { 'synthetic-echo-mcp': 'server.js' },
    }),
    'server.js': '#!/usr/bin/env node\nconsole.log("echo");\n',
  },
};

const sri = (bytes: Buffer): string => `sha512-${createHash('sha512').update(bytes).digest('base64')}`;

describe('packed registry fixtures', () => {
  const fixtures = packedRegistryFixtures({ fromNodeModules: [MEMORY, FILESYSTEM], synthetic: [synthetic] });
  const packument = (name: string): NpmPackument => fixtures.npm.find((p) => p.name === name) as NpmPackument;
  let registry: FakeRegistryServer;
  let work: string;

  beforeAll(async () => {
    registry = await FakeRegistryServer.start('npm', fixtures);
    work = await mkdtemp(join(tmpdir(), 'packed-packages-spec-'));
  });
  afterAll(async () => {
    await registry.close();
    await rm(work, { recursive: true, force: true });
  });

  it('packs a package and its whole dependency closure, in npm layout, with the true integrity', async () => {
    const memory = packument(MEMORY).versions?.['2026.8.31'] as NpmVersionDocument;
    const tarball = fixtures.tarballs?.[tarballPath(MEMORY, '2026.8.31')] as Buffer;
    const bundle = readBundle(tarball);
    const installed = await readFile(join(REPO_NODE_MODULES, MEMORY, 'package.json'));

    expect(memory.dist.integrity).toBe(sri(tarball));
    expect(memory.dist.shasum).toBe(createHash('sha1').update(tarball).digest('hex'));
    expect(bundle.rootFolder).toBe('package');
    expect(bundle.files.find((file) => file.path === 'package.json')?.content.equals(installed)).toBe(true);
    // The SDK it depends on, the SDK's dependencies, and its required peer zod.
    for (const name of ['@modelcontextprotocol/sdk', 'ajv', 'zod']) expect(packument(name)).toBeDefined();
  });

  it('keeps the usual fixtures, and adds a packed version beside a fixture package of the same name', () => {
    const filesystem = packument(FILESYSTEM);

    expect(Object.keys(filesystem.versions ?? {})).toEqual([
      FIXTURE_PACKAGES.filesystem.older,
      FIXTURE_PACKAGES.filesystem.version,
      '2026.8.31',
    ]);
    expect(filesystem['dist-tags']).toEqual({ latest: '2026.8.31' });
    expect(packument(FIXTURE_PACKAGES.weather.name)).toBeDefined();
  });

  it('serves the version document C8 reads and the tarball npm fetches, with the same integrity', async () => {
    const document = (await (
      await fetch(`${registry.baseUrl}/@modelcontextprotocol%2fserver-memory/2026.8.31`)
    ).json()) as NpmVersionDocument;
    const tarball = Buffer.from(await (await fetch(document.dist.tarball)).arrayBuffer());

    expect(document.dist.tarball).toBe(`${registry.baseUrl}${tarballPath(MEMORY, '2026.8.31')}`);
    expect(sri(tarball)).toBe(document.dist.integrity);
  });

  it('packs a package given as data the same way, and refuses one whose package.json disagrees', () => {
    const packed = packSynthetic(synthetic);

    expect(readBundle(packed.tarball).files.map((file) => file.path)).toEqual(['package.json', 'server.js']);
    expect(packed.integrity).toBe(sri(packed.tarball));
    expect(() => packSynthetic({ ...synthetic, version: '2.0.0' })).toThrow(
      'its package.json says synthetic-echo-mcp@1.0.0',
    );
  });

  it('lets npm install from it, offline', async () => {
    const project = join(work, 'project');
    const userconfig = join(work, 'npmrc');
    await writeFile(userconfig, '');
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'p', private: true, dependencies: { [synthetic.name]: '1.0.0' } }),
    );

    await promisify(execFile)(
      'npm',
      [
        'install',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        `--registry=${registry.baseUrl}`,
        `--cache=${join(work, 'cache')}`,
        `--userconfig=${userconfig}`,
      ],
      { cwd: project, env: { PATH: process.env.PATH, HOME: work } },
    );
    const lock = JSON.parse(await readFile(join(project, 'node_modules/.package-lock.json'), 'utf8')) as {
      packages: Record<string, { integrity?: string }>;
    };

    expect(lock.packages[`node_modules/${synthetic.name}`]?.integrity).toBe(packSynthetic(synthetic).integrity);
    expect(await readFile(join(project, 'node_modules', synthetic.name, 'server.js'), 'utf8')).toBe(
      synthetic.files['server.js'],
    );
  });
});
