/**
 * The hub API's request and response shapes as the client sees them, field for field the
 * DTOs under apps/hub-api/src/<area>/dto (snake_case as on the wire). Libs never import apps,
 * so they are restated here; hub-api.schemas.ts checks every answer against them at run time.
 */
import type { Problem } from '@skillhub/errors';

export type SkillFormat = 'kazma' | 'swarmkit' | 'agent-skill';
export type CertificationLevel = 'none' | 'basic' | 'standard';
/** A certification row's status (the summary inside a version). */
export type CertificationStatus = 'pending' | 'certified' | 'failed' | 'inconclusive' | 'revoked' | 'expired';
/** The certification routes' state: a row's status, or `quarantined` for an unclaimed submission. */
export type CertificationState = CertificationStatus | 'quarantined';
export type VersionStatus = 'active' | 'deprecated' | 'yanked';
export type TokenScope = 'publish' | 'claim' | 'manage' | 'tokens';
export type SubmissionStatus = 'quarantined' | 'claimed' | 'expired';
export type SkillSort = 'relevance' | 'name' | 'updated' | 'downloads' | 'version';
export type BadgeStyle = 'flat' | 'flat-square' | 'for-the-badge' | 'plastic' | 'social';

// ---- Requests ----

/** Filters of `GET /api/v1/skills`; arrays are sent as comma lists. */
export interface SkillFilters {
  /** Search text: quoted phrases, -exclude, or; the last word matches as a prefix. */
  q?: string;
  /** Every one must be declared. */
  capabilities?: readonly string[];
  /** Any one may match. */
  tags?: readonly string[];
  /** Namespace slug. */
  author?: string;
  category?: string;
  format?: SkillFormat;
  certified?: boolean;
  /** Default: relevance with q, else name. */
  sort?: SkillSort;
  /** One item per version instead of one per skill. */
  all_versions?: boolean;
}

/** Page paging or cursor paging: the hub refuses a query that mixes them, so the type does too. */
export type ListSkillsQuery = SkillFilters &
  (
    | { page?: number; per_page?: number; limit?: never; cursor?: never }
    | { limit?: number; cursor?: string; page?: never; per_page?: never }
  );

/** `iterateSkills` pages by cursor itself; `limit` is the page size (at most 100). */
export type IterateSkillsQuery = SkillFilters & { limit?: number };

export interface KazmaSearchOptions {
  category?: string;
  certified?: boolean;
}

/** What a bundle's files may not say (`PublishSkillQueryDto`). */
export interface PublishOptions {
  /** For formats without an author; defaults to the token's namespace. */
  namespace?: string;
  /** For formats without a version; must equal the manifest's where it has one. */
  version?: string;
}

export interface DownloadBundleOptions {
  /** A digest the caller already trusts (a lock file, `bundle_sha256` of a verified version): checked too. */
  expectedSha256?: string;
}

export interface VersionStatusChange {
  status: VersionStatus;
  /** Why, shown to users (at most 1000 characters). */
  message?: string;
}

/** What Kazma's `hub submit` sends besides the manifest. */
export interface SubmitOptions {
  source_url?: string;
  /** Self-declared, not authenticated. */
  submitter_id?: string;
}

export interface CreateTokenRequest {
  namespace?: string;
  /** Operator only. */
  publisher?: string;
  scopes?: TokenScope[];
  name?: string;
  /** 1-365; the hub's default is 90. */
  expires_in_days?: number;
}

export interface BadgeOptions {
  style?: BadgeStyle;
  /** Left-hand text. */
  label?: string;
  /** Default: the listed (latest) version. */
  version?: string;
}

// ---- Responses ----

export interface HealthResponse {
  status: 'ok';
  version: string;
}

export interface DependencyState {
  status: 'up' | 'down';
  detail?: string;
}

/** Returned for 200 and for 503 (database down) alike: both are answers to "are you ready?". */
export interface ReadinessResponse {
  status: 'ready' | 'degraded' | 'unavailable';
  mode: 'embedded' | 'postgres';
  database: DependencyState;
  redis: DependencyState;
  outbox_pending: number | null;
}

export interface SkillListItem {
  /** `kazma-hub://<author>/<name>@<version>`. */
  id: string;
  name: string;
  /** Namespace slug. */
  author: string;
  description: string;
  version: string;
  category: string | null;
  tags: string[];
  certified: boolean;
  downloads: number;
  capabilities: string[];
  format: SkillFormat;
  certification_level: CertificationLevel;
  updated_at: string;
}

export interface SkillListResponse {
  items: SkillListItem[];
  total: number;
  /** Page paging only. */
  page?: number;
  /** Page paging only. */
  per_page?: number;
  /** Cursor paging only: pass as `cursor` for the next items; null at the end. */
  next_cursor?: string | null;
}

export interface KazmaSearchResponse {
  items: SkillListItem[];
  total: number;
  query: string;
}

export interface StatsResponse {
  total_skills: number;
  certified_count: number;
  by_category: Record<string, number>;
}

export interface CertificationSummary {
  status: CertificationStatus;
  level: CertificationLevel;
}

export interface DeclaredTool {
  name: string;
  description: string;
}

export interface PackageRef {
  registry: 'npm' | 'pypi';
  name: string;
  version: string | null;
  source: string;
}

export interface McpServer {
  name: string;
  transport: 'stdio' | 'sse' | 'streamable-http';
  command: string[] | null;
  url: string | null;
  packages: PackageRef[];
}

export interface BundleFile {
  path: string;
  size: number;
  sha256: string;
  mode: number;
}

export interface SkillVersionResponse {
  id: string;
  name: string;
  author: string;
  description: string;
  version: string;
  category: string | null;
  tags: string[];
  /** True when this version holds a valid certificate. */
  certified: boolean;
  downloads: number;
  /** The author as the manifest wrote it. */
  author_display: string;
  format: SkillFormat;
  license: string | null;
  capabilities: string[];
  permissions: string[];
  tools: DeclaredTool[];
  mcp_servers: McpServer[];
  entry_point: string | null;
  manifest_path: string;
  bundle_sha256: string;
  bundle_size: number;
  files: BundleFile[];
  status: VersionStatus;
  status_message: string | null;
  published_at: string;
  certification: CertificationSummary;
  /** A path from the hub's root. */
  download_url: string;
}

export interface VersionSummary {
  version: string;
  status: VersionStatus;
  status_message: string | null;
  bundle_sha256: string;
  published_at: string;
  certification: CertificationSummary;
}

export interface SkillResponse {
  /** `kazma-hub://<author>/<name>`. */
  id: string;
  author: string;
  name: string;
  created_at: string;
  updated_at: string;
  /** The newest version that is not yanked (else the newest). */
  latest: SkillVersionResponse | null;
  /** Newest first, by semver. */
  versions: VersionSummary[];
}

export interface PublishResponse {
  id: string;
  author: string;
  name: string;
  version: string;
  format: SkillFormat;
  bundle_sha256: string;
  certification: CertificationSummary;
}

/** `publish`: 201 when the version was created, 200 when the same bytes were already published. */
export interface PublishResult {
  created: boolean;
  result: PublishResponse;
}

export interface ValidateSkillResponse {
  valid: true;
  id: string;
  author: string;
  name: string;
  version: string;
  format: SkillFormat;
  bundle_sha256: string;
  files: BundleFile[];
  /** Warnings only: errors fail the request with a problem document. */
  problems: Problem[];
  /** Whether the token sent may publish this; null without a token. */
  publishable: boolean | null;
}

export interface DownloadedBundle {
  bytes: Buffer;
  /** Lowercase hex SHA-256 of `bytes`, checked against what the hub declared. */
  sha256: string;
}

export interface CertificationStatusResponse {
  skill_id: string;
  /** `none` unless a certificate holds now. */
  level: CertificationLevel;
  issued_at: string | null;
  expires_at: string | null;
  requirements_met: Record<string, boolean>;
  status: CertificationState;
  policy_version?: number | null;
  /** Every finding with rule, file, line and fix hint. */
  report?: Record<string, unknown> | null;
}

export interface SubmitSkillResponse {
  submission_id: string;
  skill_id: string;
  status: SubmissionStatus;
  message: string;
  expires_at: string;
  /** A path from the hub's root. */
  claim_url: string;
}

export interface TokenResponse {
  id: string;
  name: string;
  /** The first characters of the secret, to tell tokens apart. */
  prefix: string;
  scopes: TokenScope[];
  namespace: string | null;
  publisher: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface CreatedTokenResponse extends TokenResponse {
  /** The secret, shown once. */
  token: string;
}

export interface DsseSignature {
  keyid: string;
  /** Base64 of the raw signature. */
  sig: string;
}

export interface DsseEnvelope {
  payloadType: string;
  /** Base64 of the payload bytes. */
  payload: string;
  signatures: DsseSignature[];
}

export interface PublicKey {
  /** SHA-256 of the SPKI public key, hex. */
  keyid: string;
  algorithm: 'ed25519';
  public_key_pem: string;
  not_before: string;
  /** Set once the key was retired; it still verifies what it signed before. */
  not_after: string | null;
}

export interface KeysResponse {
  keys: PublicKey[];
}

/** A publisher's own Ed25519 key, registered with a namespace (C14). */
export interface PublisherKey {
  key_id: string;
  name: string;
  public_key_pem: string;
  created_at: string;
  /** Set once removed: signatures by it stop verifying. */
  removed_at: string | null;
}

export interface PublisherKeysResponse {
  namespace: string;
  /** An active key makes publisher signatures required for the namespace. */
  signatures_required: boolean;
  keys: PublisherKey[];
}

export interface Checkpoint {
  origin: string;
  tree_size: number;
  /** RFC 6962 root, hex. */
  root_hash: string;
  /** The signed checkpoint in C2SP signed-note form. */
  note: string;
}

export interface LogEntry {
  index: number;
  kind: 'certification' | 'revocation';
  /** The exact text hashed into the leaf. */
  leaf_data: string;
  leaf_hash: string;
  summary: Record<string, unknown>;
}

export interface Proof {
  /** Hex, in RFC 9162 order. */
  hashes: string[];
  tree_size: number;
  root_hash: string;
}

export interface CertificateResponse {
  /** The DSSE envelope over the certificate statement (the DTO types it as an object). */
  envelope: DsseEnvelope;
  key_id: string;
  log_index: number;
  issued_at: string;
  expires_at: string;
  checkpoint: Checkpoint;
  /** Inclusion proof of the entry in the checkpoint's tree. */
  inclusion_proof: string[];
}

/** An RFC 9457 problem document as the hub's ProblemFilter writes it, with its extra members. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  errors?: Problem[];
  [extra: string]: unknown;
}
