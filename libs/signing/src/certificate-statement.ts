/**
 * The hub certificate (v2): a statement of everything certification looked at, signed in a
 * DSSE envelope. The statement is encoded as canonical JSON so the same facts always give the
 * same signed bytes; verifiers still read the exact bytes that were signed.
 */
import type { KeyObject } from 'node:crypto';
import type { Problem } from '@skillhub/errors';
import { canonicalJson } from './canonical-json';
import { sha256Hex } from '@skillhub/bundle';
import { SHA256_HEX_PATTERN } from './digest';
import { signEnvelope, verifyEnvelope, type DsseEnvelope, type TrustedKey } from './dsse';
import { isCanonicalIsoTime } from './iso-time';
import { isRecord } from './is-record';
import { KAZMA_SIGNATURE_FIELDS } from './kazma-hmac';
import { MalformedStatementError, UnexpectedPayloadTypeError } from './signing.errors';

export const CERTIFICATE_PAYLOAD_TYPE = 'application/vnd.skillhub.certificate+json';

export const CERTIFICATE_LEVELS = ['none', 'basic', 'standard'] as const;
export type CertificateLevel = (typeof CERTIFICATE_LEVELS)[number];

/** An MCP package probed at an exact version (C8). */
export interface PinnedPackage {
  registry: 'npm' | 'pypi';
  name: string;
  version: string;
  /** npm's `dist.integrity` (SRI, e.g. `sha512-…`) or the PyPI file's sha256. */
  integrity: string;
}

/** A PyPI server's lock: the release it runs and every wheel installed for it, each by its sha256. */
export interface ServerLock {
  name: string;
  version: string;
  wheels: Array<{ name: string; version: string; sha256: string }>;
}

export const SERVER_LAUNCHES = ['npm', 'pypi', 'bundle-file', 'remote'] as const;
export const SERVER_TRANSPORTS = ['stdio', 'sse', 'streamable-http'] as const;

/**
 * An MCP server of the skill exactly as certified (C15, C13): what the runtime may start, and
 * nothing else. Only servers whose launch was verified are listed (an unpinned package is not).
 */
export interface CertifiedServer {
  /** The server's name as the skill declares it. */
  name: string;
  transport: (typeof SERVER_TRANSPORTS)[number];
  launch: (typeof SERVER_LAUNCHES)[number];
  /** stdio: the exact argv, as declared (`['npx', '-y', 'pkg@1.2.3', '/data']`); [] for a remote server. */
  argv: string[];
  /** A remote server's `https` URL; else null. */
  url: string | null;
  /** The package it runs, pinned with its registry integrity (npm, PyPI); else null. */
  package: PinnedPackage | null;
  /** bundle-file: the bundle file the interpreter runs (its digest is in `files`); else null. */
  file: string | null;
  /** Environment as declared; `${VAR}` values are filled by the runtime from secrets its operator names. */
  env: Record<string, string>;
  cwd: string | null;
  /** Live tool name → `toolDefinitionHash`, as listed in the sandbox at certification; null when not recorded. */
  tools: Record<string, string> | null;
  /** pypi: the wheels installed and probed, which the runtime installs by hash; absent otherwise. */
  lock?: ServerLock;
}

/** Digests are lowercase hex SHA-256; times are `toISOString()` UTC. */
export interface CertificateStatement {
  /** `author/name`. */
  skill: string;
  version: string;
  bundleSha256: string;
  /** See `manifestSha256()`. */
  manifestSha256: string;
  /** Kazma's `checksum` of the entry point; null for formats without one. */
  entryPointChecksum: string | null;
  /** Bundle path → sha256 of the file (C5). */
  files: Record<string, string>;
  capabilities: string[];
  permissions: string[];
  /** What the code was proven to do (C11): process_exec, network, env_read, file_read, file_write… */
  codeCapabilities: string[];
  packages: PinnedPackage[];
  /** Declared (native) tool name → sha256 of its canonical definition (C13). */
  tools: Record<string, string>;
  /** The MCP servers that may be started, with their live tool pins (C15, C13). */
  servers: CertifiedServer[];
  level: CertificateLevel;
  /** sha256 of the check results the level was derived from. */
  checkResultsSha256: string;
  issuedAt: string;
  expiresAt: string;
  /** Index of this certification's entry in the transparency log. */
  logIndex: number;
}

/**
 * The manifest digest bound by certificates: SHA-256 of the canonical JSON of the parsed
 * manifest without Kazma's `checksum` and `signature`. Parsed rather than raw bytes because
 * `hub sign` rewrites the whole YAML file when it adds those fields.
 */
export function manifestSha256(manifest: Readonly<Record<string, unknown>>): string {
  const signatureFields: readonly string[] = KAZMA_SIGNATURE_FIELDS;
  const unsigned = Object.fromEntries(Object.entries(manifest).filter(([key]) => !signatureFields.includes(key)));
  return sha256Hex(canonicalJson(unsigned));
}

/** Canonical bytes: sorted keys, no whitespace, and the set-like lists sorted too, so order never changes the bytes. */
export function encodeStatement(statement: CertificateStatement): Buffer {
  const problems = statementProblems(statement);
  if (problems.length > 0) throw new MalformedStatementError(problems);
  return canonicalBytes(statement);
}

/** Accepts only a well-shaped statement in canonical form, which also rules out duplicate JSON keys. */
export function decodeStatement(bytes: Buffer): CertificateStatement {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new MalformedStatementError([problem('', 'is not UTF-8 JSON')]);
  }
  const problems = statementProblems(value);
  if (problems.length > 0) throw new MalformedStatementError(problems);
  const statement = value as CertificateStatement;
  if (!canonicalBytes(statement).equals(bytes)) {
    throw new MalformedStatementError([problem('', 'is not in canonical form (sorted keys and lists, no whitespace)')]);
  }
  return statement;
}

export function signCertificate(statement: CertificateStatement, privateKey: KeyObject, keyid: string): DsseEnvelope {
  return signEnvelope(CERTIFICATE_PAYLOAD_TYPE, encodeStatement(statement), privateKey, keyid);
}

/**
 * Verifies the envelope (see `verifyEnvelope` for `at`) and that it carries a certificate: the
 * same keys may sign other payload types, which must never be read as a certificate. Expiry is
 * the caller's policy and is not checked here.
 */
export function verifyCertificate(envelope: unknown, keys: readonly TrustedKey[], at?: Date): CertificateStatement {
  const payload = verifyEnvelope(envelope, keys, at);
  // Safe to read once verified: the signature covers the payload type.
  const { payloadType } = envelope as DsseEnvelope;
  if (payloadType !== CERTIFICATE_PAYLOAD_TYPE) {
    throw new UnexpectedPayloadTypeError(CERTIFICATE_PAYLOAD_TYPE, payloadType);
  }
  return decodeStatement(payload);
}

function canonicalBytes(statement: CertificateStatement): Buffer {
  return Buffer.from(
    canonicalJson({
      ...statement,
      capabilities: sortedSet(statement.capabilities),
      permissions: sortedSet(statement.permissions),
      codeCapabilities: sortedSet(statement.codeCapabilities),
      servers: sortedSet(statement.servers, (server) => server.name),
      // By registry and name first, so a reader finds a package where expected.
      packages: sortedSet(statement.packages, (p) => canonicalJson([p.registry, p.name, p.version, p.integrity])),
    }),
    'utf8',
  );
}

const sortedSet = <T>(items: readonly T[], sortKey: (item: T) => string = canonicalJson): T[] =>
  items
    .map((item) => ({ key: sortKey(item), item }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ item }) => item);

// ---- shape validation: every problem is reported, with a dotted path ----

type Check = (value: unknown, path: string, problems: Problem[]) => void;

// Lengths are capped before any pattern runs (docs/security.md).
const MAX_TEXT = 256;
const SKILL_REF_PATTERN = /^[a-z0-9][a-z0-9-]{0,38}\/[a-z0-9][a-z0-9-]{0,63}$/;
const SEMVER_PATTERN =
  /^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const PACKAGE_REGISTRIES: readonly unknown[] = ['npm', 'pypi'];

const problem = (path: string, message: string): Problem => ({ path, message, severity: 'error' });

const text =
  (pattern?: RegExp, hint?: string): Check =>
  (value, path, problems) => {
    if (typeof value !== 'string' || value === '') problems.push(problem(path, 'must be a non-empty string'));
    else if (pattern !== undefined && (value.length > MAX_TEXT || !pattern.test(value))) {
      problems.push(problem(path, `must be ${hint}`));
    }
  };

const digest = text(SHA256_HEX_PATTERN, '64 lowercase hex characters (SHA-256)');

const isoTime: Check = (value, path, problems) => {
  if (typeof value !== 'string' || !isCanonicalIsoTime(value)) {
    problems.push(problem(path, 'must be a UTC time as toISOString() writes it (YYYY-MM-DDTHH:mm:ss.sssZ)'));
  }
};

const nullable =
  (check: Check): Check =>
  (value, path, problems) => {
    if (value !== null) check(value, path, problems);
  };

const digestMap: Check = (value, path, problems) => {
  if (!isRecord(value)) {
    problems.push(problem(path, 'must be an object of name → SHA-256'));
    return;
  }
  for (const [key, entry] of Object.entries(value)) {
    if (key === '') problems.push(problem(path, 'has an empty name'));
    digest(entry, `${path}.${key}`, problems);
  }
};

const set =
  (check: Check): Check =>
  (value, path, problems) => {
    if (!Array.isArray(value)) {
      problems.push(problem(path, 'must be a list'));
      return;
    }
    const seen = new Set<string>();
    value.forEach((item: unknown, index) => {
      const before = problems.length;
      check(item, `${path}[${index}]`, problems);
      if (problems.length > before) return;
      const key = canonicalJson(item);
      if (seen.has(key)) problems.push(problem(`${path}[${index}]`, 'is listed twice'));
      seen.add(key);
    });
  };

const pinnedPackage: Check = (value, path, problems) =>
  checkObject(value, path, problems, {
    registry: (registry, at, list) => {
      if (!PACKAGE_REGISTRIES.includes(registry)) list.push(problem(at, 'must be "npm" or "pypi"'));
    },
    name: text(),
    version: text(),
    integrity: text(),
  });

const oneOf =
  (values: readonly string[]): Check =>
  (value, path, problems) => {
    if (!values.includes(value as string)) problems.push(problem(path, `must be one of ${values.join(', ')}`));
  };

const stringMap: Check = (value, path, problems) => {
  if (!isRecord(value)) {
    problems.push(problem(path, 'must be an object of name → text'));
    return;
  }
  for (const [key, entry] of Object.entries(value)) {
    if (key === '') problems.push(problem(path, 'has an empty name'));
    if (typeof entry !== 'string') problems.push(problem(`${path}.${key}`, 'must be a string'));
  }
};

const stringList: Check = (value, path, problems) => {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    problems.push(problem(path, 'must be a list of strings'));
  }
};

const lockedWheel: Check = (value, path, problems) =>
  checkObject(value, path, problems, { name: text(), version: text(), sha256: digest });

const serverLock: Check = (value, path, problems) =>
  checkObject(value, path, problems, { name: text(), version: text(), wheels: set(lockedWheel) });

const certifiedServer: Check = (value, path, problems) =>
  checkObject(
    value,
    path,
    problems,
    {
      name: text(),
      transport: oneOf(SERVER_TRANSPORTS),
      launch: oneOf(SERVER_LAUNCHES),
      argv: stringList,
      url: nullable(text()),
      package: nullable(pinnedPackage),
      file: nullable(text()),
      env: stringMap,
      cwd: nullable(text()),
      tools: nullable(digestMap),
    },
    { lock: serverLock },
  );

const uniqueNames: Check = (value, path, problems) => {
  set(certifiedServer)(value, path, problems);
  if (!Array.isArray(value)) return;
  const names = value.map((server: unknown) => (isRecord(server) ? server.name : undefined));
  names.forEach((name, index) => {
    if (names.indexOf(name) !== index) problems.push(problem(`${path}[${index}].name`, 'names a server listed before'));
  });
};

const STATEMENT_FIELDS: Record<keyof CertificateStatement, Check> = {
  skill: text(SKILL_REF_PATTERN, 'author/name (lowercase letters, digits and "-")'),
  version: text(SEMVER_PATTERN, 'a semantic version'),
  bundleSha256: digest,
  manifestSha256: digest,
  entryPointChecksum: nullable(digest),
  files: digestMap,
  capabilities: set(text()),
  permissions: set(text()),
  codeCapabilities: set(text()),
  packages: set(pinnedPackage),
  tools: digestMap,
  servers: uniqueNames,
  level: (value, path, problems) => {
    if (!(CERTIFICATE_LEVELS as readonly unknown[]).includes(value)) {
      problems.push(problem(path, `must be one of ${CERTIFICATE_LEVELS.join(', ')}`));
    }
  },
  checkResultsSha256: digest,
  issuedAt: isoTime,
  expiresAt: isoTime,
  logIndex: (value, path, problems) => {
    if (!Number.isSafeInteger(value) || (value as number) < 0) problems.push(problem(path, 'must be an integer ≥ 0'));
  },
};

/** Exactly the listed fields: a signed statement carries nothing a verifier would not check. */
/** `fields` are required; `optional` ones are checked when present (a later field, absent from older certificates). */
function checkObject(
  value: unknown,
  path: string,
  problems: Problem[],
  fields: Record<string, Check>,
  optional: Record<string, Check> = {},
): void {
  if (!isRecord(value)) {
    problems.push(problem(path, 'must be an object'));
    return;
  }
  const at = (key: string): string => (path === '' ? key : `${path}.${key}`);
  for (const [key, check] of Object.entries(fields)) {
    if (Object.hasOwn(value, key)) check(value[key], at(key), problems);
    else problems.push(problem(at(key), 'is required'));
  }
  for (const [key, check] of Object.entries(optional))
    if (Object.hasOwn(value, key)) check(value[key], at(key), problems);
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(fields, key) && !Object.hasOwn(optional, key))
      problems.push(problem(at(key), 'is not a known field'));
  }
}

function statementProblems(value: unknown): Problem[] {
  const problems: Problem[] = [];
  checkObject(value, '', problems, STATEMENT_FIELDS);
  if (problems.length === 0) {
    const { issuedAt, expiresAt } = value as CertificateStatement;
    if (Date.parse(expiresAt) <= Date.parse(issuedAt)) problems.push(problem('expiresAt', 'must be after issuedAt'));
  }
  return problems;
}
