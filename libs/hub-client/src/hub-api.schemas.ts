/**
 * Run-time checks of the hub's answers, one per response type of hub-api.types.ts (each is
 * checked against its interface by `satisfies`). Members the hub adds later are dropped rather
 * than refused, so an older client keeps working; an enum value it does not know is refused,
 * because code that switches on a level or a status must not see one it was not written for.
 */
import { z } from 'zod';
import type * as T from './hub-api.types';

const skillFormat = z.enum(['kazma', 'swarmkit', 'agent-skill']) satisfies z.ZodType<T.SkillFormat>;
const certificationLevel = z.enum(['none', 'basic', 'standard']) satisfies z.ZodType<T.CertificationLevel>;
const certificationStatus = z.enum([
  'pending',
  'certified',
  'failed',
  'inconclusive',
  'revoked',
  'expired',
]) satisfies z.ZodType<T.CertificationStatus>;
const versionStatus = z.enum(['active', 'deprecated', 'yanked']) satisfies z.ZodType<T.VersionStatus>;
const tokenScope = z.enum(['publish', 'claim', 'manage', 'tokens']) satisfies z.ZodType<T.TokenScope>;
const nullableString = z.string().nullable();
const jsonObject = z.record(z.string(), z.unknown());

export const problemEntrySchema = z.object({
  path: z.string(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
});

/** Loose: a problem's extra members (`retry_after`, `limit`…) are part of what it says. */
export const problemDocumentSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number(),
  detail: z.string(),
  code: z.string(),
  instance: z.string().optional(),
  errors: z.array(problemEntrySchema).optional(),
}) satisfies z.ZodType<T.ProblemDocument>;

const dependencyState = z.object({ status: z.enum(['up', 'down']), detail: z.string().optional() });

export const healthSchema = z.object({ status: z.literal('ok'), version: z.string() }) satisfies z.ZodType<T.HealthResponse>;

export const readinessSchema = z.object({
  status: z.enum(['ready', 'degraded', 'unavailable']),
  mode: z.enum(['embedded', 'postgres']),
  database: dependencyState,
  redis: dependencyState,
  outbox_pending: z.number().nullable(),
}) satisfies z.ZodType<T.ReadinessResponse>;

const skillListItem = z.object({
  id: z.string(),
  name: z.string(),
  author: z.string(),
  description: z.string(),
  version: z.string(),
  category: nullableString,
  tags: z.array(z.string()),
  certified: z.boolean(),
  downloads: z.number(),
  capabilities: z.array(z.string()),
  format: skillFormat,
  certification_level: certificationLevel,
  updated_at: z.string(),
}) satisfies z.ZodType<T.SkillListItem>;

export const skillListSchema = z.object({
  items: z.array(skillListItem),
  total: z.number(),
  page: z.number().optional(),
  per_page: z.number().optional(),
  next_cursor: nullableString.optional(),
}) satisfies z.ZodType<T.SkillListResponse>;

/** A cursor-paged answer must say where the next page starts, or that there is none. */
export const skillCursorPageSchema = skillListSchema.extend({ next_cursor: nullableString });

export const kazmaSearchSchema = z.object({
  items: z.array(skillListItem),
  total: z.number(),
  query: z.string(),
}) satisfies z.ZodType<T.KazmaSearchResponse>;

export const statsSchema = z.object({
  total_skills: z.number(),
  certified_count: z.number(),
  by_category: z.record(z.string(), z.number()),
}) satisfies z.ZodType<T.StatsResponse>;

const certificationSummary = z.object({
  status: certificationStatus,
  level: certificationLevel,
}) satisfies z.ZodType<T.CertificationSummary>;

const bundleFile = z.object({
  path: z.string(),
  size: z.number(),
  sha256: z.string(),
  mode: z.number(),
}) satisfies z.ZodType<T.BundleFile>;

const mcpServer = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'sse', 'streamable-http']),
  command: z.array(z.string()).nullable(),
  url: nullableString,
  packages: z.array(
    z.object({ registry: z.enum(['npm', 'pypi']), name: z.string(), version: nullableString, source: z.string() }),
  ),
}) satisfies z.ZodType<T.McpServer>;

export const skillVersionSchema = z.object({
  id: z.string(),
  name: z.string(),
  author: z.string(),
  description: z.string(),
  version: z.string(),
  category: nullableString,
  tags: z.array(z.string()),
  certified: z.boolean(),
  downloads: z.number(),
  author_display: z.string(),
  format: skillFormat,
  license: nullableString,
  capabilities: z.array(z.string()),
  permissions: z.array(z.string()),
  tools: z.array(z.object({ name: z.string(), description: z.string() })),
  mcp_servers: z.array(mcpServer),
  entry_point: nullableString,
  manifest_path: z.string(),
  bundle_sha256: z.string(),
  bundle_size: z.number(),
  files: z.array(bundleFile),
  status: versionStatus,
  status_message: nullableString,
  published_at: z.string(),
  certification: certificationSummary,
  download_url: z.string(),
}) satisfies z.ZodType<T.SkillVersionResponse>;

export const skillSchema = z.object({
  id: z.string(),
  author: z.string(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  latest: skillVersionSchema.nullable(),
  versions: z.array(
    z.object({
      version: z.string(),
      status: versionStatus,
      status_message: nullableString,
      bundle_sha256: z.string(),
      published_at: z.string(),
      certification: certificationSummary,
    }),
  ),
}) satisfies z.ZodType<T.SkillResponse>;

export const publishSchema = z.object({
  id: z.string(),
  author: z.string(),
  name: z.string(),
  version: z.string(),
  format: skillFormat,
  bundle_sha256: z.string(),
  certification: certificationSummary,
}) satisfies z.ZodType<T.PublishResponse>;

export const validateSchema = z.object({
  valid: z.literal(true),
  id: z.string(),
  author: z.string(),
  name: z.string(),
  version: z.string(),
  format: skillFormat,
  bundle_sha256: z.string(),
  files: z.array(bundleFile),
  problems: z.array(problemEntrySchema),
  publishable: z.boolean().nullable(),
}) satisfies z.ZodType<T.ValidateSkillResponse>;

export const certificationStatusSchema = z.object({
  skill_id: z.string(),
  level: certificationLevel,
  issued_at: nullableString,
  expires_at: nullableString,
  requirements_met: z.record(z.string(), z.boolean()),
  status: z.enum([...certificationStatus.options, 'quarantined']),
  policy_version: z.number().nullable().optional(),
  report: jsonObject.nullable().optional(),
}) satisfies z.ZodType<T.CertificationStatusResponse>;

export const submitSchema = z.object({
  submission_id: z.string(),
  skill_id: z.string(),
  status: z.enum(['quarantined', 'claimed', 'expired']),
  message: z.string(),
  expires_at: z.string(),
  claim_url: z.string(),
}) satisfies z.ZodType<T.SubmitSkillResponse>;

export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(tokenScope),
  namespace: nullableString,
  publisher: z.string(),
  expires_at: nullableString,
  revoked_at: nullableString,
  last_used_at: nullableString,
  created_at: z.string(),
}) satisfies z.ZodType<T.TokenResponse>;

export const tokenListSchema = z.array(tokenSchema);

export const createdTokenSchema = tokenSchema.extend({ token: z.string() }) satisfies z.ZodType<T.CreatedTokenResponse>;

export const dsseEnvelopeSchema = z.object({
  payloadType: z.string(),
  payload: z.string(),
  signatures: z.array(z.object({ keyid: z.string(), sig: z.string() })),
}) satisfies z.ZodType<T.DsseEnvelope>;

export const keysSchema = z.object({
  keys: z.array(
    z.object({
      keyid: z.string(),
      algorithm: z.literal('ed25519'),
      public_key_pem: z.string(),
      not_before: z.string(),
      not_after: nullableString,
    }),
  ),
}) satisfies z.ZodType<T.KeysResponse>;

export const checkpointSchema = z.object({
  origin: z.string(),
  tree_size: z.number(),
  root_hash: z.string(),
  note: z.string(),
}) satisfies z.ZodType<T.Checkpoint>;

export const logEntrySchema = z.object({
  index: z.number(),
  kind: z.enum(['certification', 'revocation']),
  leaf_data: z.string(),
  leaf_hash: z.string(),
  summary: jsonObject,
}) satisfies z.ZodType<T.LogEntry>;

export const proofSchema = z.object({
  hashes: z.array(z.string()),
  tree_size: z.number(),
  root_hash: z.string(),
}) satisfies z.ZodType<T.Proof>;

export const certificateSchema = z.object({
  envelope: dsseEnvelopeSchema,
  key_id: z.string(),
  log_index: z.number(),
  issued_at: z.string(),
  expires_at: z.string(),
  checkpoint: checkpointSchema,
  inclusion_proof: z.array(z.string()),
}) satisfies z.ZodType<T.CertificateResponse>;
