/**
 * Real npm tarballs for the fake registry: packages packed from this repository's node_modules (with
 * their whole dependency closure) or from files given as data, in npm's layout (every entry under
 * `package/`), deterministic, with their true sha512 integrity. `npm install --registry=<fake>` then
 * works offline, and C8's `GET /<name>/<version>` sees the integrity npm checks the bytes against.
 * Packed tarballs are kept in the OS temp folder, keyed by name, version and content, so a second
 * test run does not pack them again.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { rsort } from 'semver';
import { writeBundle, type BundleInputFile } from '@skillhub/bundle';
import { REGISTRY_FIXTURES, npmPackument, type NpmVersionDocument, type RegistryFixtures } from './registry-fixtures';

/** A package defined as data: a package.json (name and version must match) and its other files. */
export interface SyntheticPackage {
  name: string;
  version: string;
  /** Path inside the package → content; must include `package.json`. */
  files: Record<string, string>;
}

export interface PackedPackage {
  name: string;
  version: string;
  /** The package.json inside the tarball. */
  manifest: Record<string, unknown>;
  tarball: Buffer;
  /** SRI sha512 of the tarball, as npm's `dist.integrity`. */
  integrity: string;
  /** Hex SHA-1 of the tarball, as npm's `dist.shasum`. */
  shasum: string;
}

/** This repository's node_modules, found through a package it depends on (so it holds from dist/ too). */
export const REPO_NODE_MODULES = dirname(dirname(require.resolve('semver/package.json')));

const PACK_CACHE = join(tmpdir(), 'skillhub-packed-tarballs');

/**
 * Packs each named package and every package it needs (dependencies, optional dependencies that are
 * installed, non-optional peer dependencies), resolved from `nodeModules` as Node resolves them (nested
 * node_modules first). Each name@version is packed once.
 *
 * @throws Error when a package or a required dependency is not installed.
 */
export const packFromNodeModules = (names: readonly string[], nodeModules = REPO_NODE_MODULES): PackedPackage[] => {
  const folders = new Map<string, string>();
  const visit = (folder: string): void => {
    const manifest = readManifest(folder);
    const key = `${manifest.name}@${manifest.version}`;
    if (folders.has(key)) return;
    folders.set(key, folder);
    for (const [dependency, optional] of requiredDependencies(manifest)) {
      const found = resolvePackage(folder, dependency, nodeModules);
      if (found) visit(found);
      else if (!optional) throw new Error(`${key} needs ${dependency}, which is not installed in ${nodeModules}`);
    }
  };
  for (const name of names) {
    const folder = join(nodeModules, name);
    if (!existsSync(join(folder, 'package.json'))) throw new Error(`${name} is not installed in ${nodeModules}`);
    visit(folder);
  }
  return [...folders.values()].map((folder) => packFiles(folderFiles(folder)));
};

/** Packs a package given as data, exactly as a node_modules one. */
export const packSynthetic = (pkg: SyntheticPackage): PackedPackage => {
  if (!Object.hasOwn(pkg.files, 'package.json')) throw new Error(`${pkg.name}: a package needs a package.json`);
  const packed = packFiles(
    Object.entries(pkg.files).map(([path, content]) => ({ path, content: Buffer.from(content) })),
  );
  if (packed.name !== pkg.name || packed.version !== pkg.version) {
    throw new Error(`${pkg.name}@${pkg.version}: its package.json says ${packed.name}@${packed.version}`);
  }
  return packed;
};

/** The path npm requests a tarball at: `/<name>/-/<unscoped name>-<version>.tgz` (the scope stays a folder). */
export const tarballPath = (name: string, version: string): string =>
  `/${name}/-/${name.slice(name.indexOf('/') + 1)}-${version}.tgz`;

type Manifest = Record<string, unknown> & { name: string; version: string };

const readManifest = (folder: string): Manifest => {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
  if (typeof manifest.name !== 'string' || typeof manifest.version !== 'string') {
    throw new Error(`${folder}/package.json has no name or version`);
  }
  return manifest;
};

/** What npm installs beside a package: [name, optional?]. */
const requiredDependencies = (manifest: Manifest): [string, boolean][] => {
  const names = (field: string): string[] => Object.keys((manifest[field] as Record<string, string>) ?? {});
  const peerMeta = (manifest.peerDependenciesMeta as Record<string, { optional?: boolean }>) ?? {};
  return [
    ...names('dependencies').map((name): [string, boolean] => [name, false]),
    ...names('optionalDependencies').map((name): [string, boolean] => [name, true]),
    ...names('peerDependencies')
      .filter((name) => peerMeta[name]?.optional !== true)
      .map((name): [string, boolean] => [name, false]),
  ];
};

/** Node's lookup: `<folder>/node_modules/<name>`, then each enclosing folder's, up to `nodeModules`. */
const resolvePackage = (from: string, name: string, nodeModules: string): string | null => {
  for (let folder = from; folder.startsWith(nodeModules); folder = dirname(folder)) {
    if (basename(folder) === 'node_modules') continue;
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  const top = join(nodeModules, name);
  return existsSync(join(top, 'package.json')) ? top : null;
};

/** Every regular file of an installed package, its own nested node_modules (other packages) left out. */
const folderFiles = (root: string): BundleInputFile[] => {
  const files: BundleInputFile[] = [];
  const walk = (folder: string, prefix: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(path, `${prefix}${entry.name}/`);
      else if (entry.isFile()) {
        files.push({ path: `${prefix}${entry.name}`, content: readFileSync(path), mode: statSync(path).mode & 0o777 });
      }
    }
  };
  walk(root, '');
  return files;
};

const packFiles = (files: BundleInputFile[]): PackedPackage => {
  const manifestFile = files.find((file) => file.path === 'package.json');
  if (!manifestFile) throw new Error('a package needs a package.json');
  const manifest = JSON.parse(manifestFile.content.toString()) as Manifest;
  const tarball = cachedTarball(manifest, files);
  return {
    name: manifest.name,
    version: manifest.version,
    manifest,
    tarball,
    integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
    shasum: createHash('sha1').update(tarball).digest('hex'),
  };
};

const cachedTarball = (manifest: Manifest, files: BundleInputFile[]): Buffer => {
  const key = createHash('sha256').update(`${manifest.name}@${manifest.version}\n`);
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    key.update(`${file.path}\0${file.mode ?? 0o644}\0`).update(createHash('sha256').update(file.content).digest());
  }
  const cached = join(PACK_CACHE, `${key.digest('hex')}.tgz`);
  if (existsSync(cached)) return readFileSync(cached);
  const tarball = writeBundle(files, { rootFolder: 'package' });
  mkdirSync(PACK_CACHE, { recursive: true });
  // Written under a unique name and renamed, so a parallel test file never reads half a tarball.
  const partial = `${cached}.${process.pid}.${Date.now()}`;
  writeFileSync(partial, tarball);
  renameSync(partial, cached);
  return tarball;
};

export interface PackedRegistryOptions {
  /** Packages to pack from node_modules, with their dependency closure. */
  fromNodeModules?: readonly string[];
  /** Packages defined as data. */
  synthetic?: readonly SyntheticPackage[];
  /** The fixtures they join; a packed version replaces a fixture version of the same name and number. */
  base?: RegistryFixtures;
  nodeModules?: string;
}

/**
 * Registry fixtures that serve real tarballs: the packed packages' packuments (every packed version
 * of a name together, `latest` the highest) merged into `base`, and the tarballs themselves.
 */
export const packedRegistryFixtures = (options: PackedRegistryOptions): RegistryFixtures => {
  const packed = [
    ...packFromNodeModules(options.fromNodeModules ?? [], options.nodeModules),
    ...(options.synthetic ?? []).map(packSynthetic),
  ];
  const base = options.base ?? REGISTRY_FIXTURES;
  const packuments = new Map(base.npm.map((packument) => [packument.name, packument]));
  for (const pkg of packed) {
    const others = Object.values(packuments.get(pkg.name)?.versions ?? {}).filter((doc) => doc.version !== pkg.version);
    const packument = npmPackument([...others, packedVersion(pkg)]);
    packument['dist-tags'] = { latest: rsort(Object.keys(packument.versions ?? {}))[0] as string };
    packuments.set(pkg.name, packument);
  }
  const tarballs = { ...base.tarballs };
  for (const pkg of packed) tarballs[tarballPath(pkg.name, pkg.version)] = pkg.tarball;
  return { npm: [...packuments.values()], pypi: base.pypi, tarballs };
};

/** Registry fixtures for real node_modules packages (and their dependencies) beside the usual ones. */
export const realPackageFixtures = (names: readonly string[]): RegistryFixtures =>
  packedRegistryFixtures({ fromNodeModules: names });

/** The version document a registry serves: the package.json as published plus `_id` and `dist`. */
const packedVersion = (pkg: PackedPackage): NpmVersionDocument => ({
  ...pkg.manifest,
  _id: `${pkg.name}@${pkg.version}`,
  name: pkg.name,
  version: pkg.version,
  dist: {
    integrity: pkg.integrity,
    shasum: pkg.shasum,
    // Path only: the fake registry prefixes its own address when it answers.
    tarball: tarballPath(pkg.name, pkg.version),
  },
});
