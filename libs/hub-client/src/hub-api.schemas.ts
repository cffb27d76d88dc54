/**
 * Run-time checks of the hub's answers, one per response type of hub-api.types.ts (each tied to
 * its interface at compile time by `exactly`). Members the hub adds later are dropped rather
 * than refused, so an older client keeps working; an enum value it does not know is refused,
 * because code that switches on a level or a status must not see one it was not written for.
 */
import { z } from 'zod';
import type { Problem } from '@skillhub/errors';
import type * as T from './hub-api.types';

/**
 * Ties a schema to its interface both ways at compile time: what the schema accepts fits I, and I
 * fits what it accepts, so a field left out, made narrower or widened fails the build.
 */
const exactly =
  <I>() =>
  <S extends z.ZodType<I>>(schema: S & ([I] extends [z.output<S>] ? unknown : never)): S =>
    schema;

const skillFormat = exactly<T.SkillFormat>()(z.enum(['kazma', 'swarmkit', 'agent-skill']));
const certificationLevel = exactly<T.CertificationLevel>()(z.enum(['none', 'basic', 'standard']));
const certificationStatus = exactly<T.CertificationStatus>()(
  z.enum(['pending', 'certified', 'failed', 'inconclusive', 'revoked', 'expired']),
);
const versionStatus = exactly<T.VersionStatus>()(z.enum(['active', 'deprecated', 'yanked']));
const tokenScope = exactly<T.TokenScope>()(z.enum(['publish', 'claim', 'manage', 'tokens']));
const nullableString = z.string().nullable();
const jsonObject = z.record(z.string(), z.unknown());

const problemEntry = exactly<Problem>()(
  z.object({ path: z.string(), message: z.string(), severity: z.enum(['error', 'warning']) }),
);

/** Loose: a problem's extra members (`retry_after`, `limit`…) are part of what it says. */
export const problemDocumentSchema = exactly<T.ProblemDocument>()(
  z.looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number(),
    detail: z.string(),
    code: z.string(),
    instance: z.string().optional(),
    errors: z.array(problemEntry).optional(),
  }),
);

const dependencyState = z.object({ status: z.enum(['up', 'down']), detail: z.string().optional() });

export const healthSchema = exactly<T.HealthResponse>()(z.object({ status: z.literal('ok'), version: z.string() }));

export const readinessSchema = exactly<T.ReadinessResponse>()(
  z.object({
    status: z.enum(['ready', 'degraded', 'unavailable']),
    mode: z.enum(['embedded', 'postgres']),
    database: dependencyState,
    redis: dependencyState,
    outbox_pending: z.number().nullable(),
  }),
);

const skillListItem = exactly<T.SkillListItem>()(
  z.object({
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
  }),
);

export const skillListSchema = exactly<T.SkillListResponse>()(
  z.object({
    items: z.array(skillListItem),
    total: z.number(),
    page: z.number().optional(),
    per_page: z.number().optional(),
    next_cursor: nullableString.optional(),
  }),
);

/** A cursor-paged answer must say where the next page starts, or that there is none. */
export const skillCursorPageSchema = skillListSchema.extend({ next_cursor: nullableString });

export const kazmaSearchSchema = exactly<T.KazmaSearchResponse>()(
  z.object({
    items: z.array(skillListItem),
    total: z.number(),
    query: z.string(),
  }),
);

export const statsSchema = exactly<T.StatsResponse>()(
  z.object({
    total_skills: z.number(),
    certified_count: z.number(),
    by_category: z.record(z.string(), z.number()),
  }),
);

const certificationSummary = exactly<T.CertificationSummary>()(
  z.object({
    status: certificationStatus,
    level: certificationLevel,
  }),
);

const bundleFile = exactly<T.BundleFile>()(
  z.object({
    path: z.string(),
    size: z.number(),
    sha256: z.string(),
    mode: z.number(),
  }),
);

const mcpServer = exactly<T.McpServer>()(
  z.object({
    name: z.string(),
    transport: z.enum(['stdio', 'sse', 'streamable-http']),
    command: z.array(z.string()).nullable(),
    url: nullableString,
    packages: z.array(
      z.object({ registry: z.enum(['npm', 'pypi']), name: z.string(), version: nullableString, source: z.string() }),
    ),
  }),
);

export const skillVersionSchema = exactly<T.SkillVersionResponse>()(
  z.object({
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
  }),
);

export const skillSchema = exactly<T.SkillResponse>()(
  z.object({
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
  }),
);

export const publishSchema = exactly<T.PublishResponse>()(
  z.object({
    id: z.string(),
    author: z.string(),
    name: z.string(),
    version: z.string(),
    format: skillFormat,
    bundle_sha256: z.string(),
    certification: certificationSummary,
  }),
);

export const validateSchema = exactly<T.ValidateSkillResponse>()(
  z.object({
    valid: z.literal(true),
    id: z.string(),
    author: z.string(),
    name: z.string(),
    version: z.string(),
    format: skillFormat,
    bundle_sha256: z.string(),
    files: z.array(bundleFile),
    problems: z.array(problemEntry),
    publishable: z.boolean().nullable(),
  }),
);

export const certificationStatusSchema = exactly<T.CertificationStatusResponse>()(
  z.object({
    skill_id: z.string(),
    level: certificationLevel,
    issued_at: nullableString,
    expires_at: nullableString,
    requirements_met: z.record(z.string(), z.boolean()),
    status: z.enum([...certificationStatus.options, 'quarantined']),
    policy_version: z.number().nullable().optional(),
    report: jsonObject.nullable().optional(),
  }),
);

export const submitSchema = exactly<T.SubmitSkillResponse>()(
  z.object({
    submission_id: z.string(),
    skill_id: z.string(),
    status: z.enum(['quarantined', 'claimed', 'expired']),
    message: z.string(),
    expires_at: z.string(),
    claim_url: z.string(),
  }),
);

export const tokenSchema = exactly<T.TokenResponse>()(
  z.object({
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
  }),
);

export const tokenListSchema = z.array(tokenSchema);

export const createdTokenSchema = exactly<T.CreatedTokenResponse>()(tokenSchema.extend({ token: z.string() }));

export const dsseEnvelopeSchema = exactly<T.DsseEnvelope>()(
  z.object({
    payloadType: z.string(),
    payload: z.string(),
    signatures: z.array(z.object({ keyid: z.string(), sig: z.string() })),
  }),
);

export const keysSchema = exactly<T.KeysResponse>()(
  z.object({
    keys: z.array(
      z.object({
        keyid: z.string(),
        algorithm: z.literal('ed25519'),
        public_key_pem: z.string(),
        not_before: z.string(),
        not_after: nullableString,
      }),
    ),
  }),
);

export const publisherKeySchema = exactly<T.PublisherKey>()(
  z.object({
    key_id: z.string(),
    name: z.string(),
    public_key_pem: z.string(),
    created_at: z.string(),
    removed_at: nullableString,
  }),
);

export const publisherKeysSchema = exactly<T.PublisherKeysResponse>()(
  z.object({ namespace: z.string(), signatures_required: z.boolean(), keys: z.array(publisherKeySchema) }),
);

export const checkpointSchema = exactly<T.Checkpoint>()(
  z.object({
    origin: z.string(),
    tree_size: z.number(),
    root_hash: z.string(),
    note: z.string(),
  }),
);

export const logEntrySchema = exactly<T.LogEntry>()(
  z.object({
    index: z.number(),
    kind: z.enum(['certification', 'revocation']),
    leaf_data: z.string(),
    leaf_hash: z.string(),
    summary: jsonObject,
  }),
);

export const proofSchema = exactly<T.Proof>()(
  z.object({
    hashes: z.array(z.string()),
    tree_size: z.number(),
    root_hash: z.string(),
  }),
);

export const certificateSchema = exactly<T.CertificateResponse>()(
  z.object({
    envelope: dsseEnvelopeSchema,
    key_id: z.string(),
    log_index: z.number(),
    issued_at: z.string(),
    expires_at: z.string(),
    checkpoint: checkpointSchema,
    inclusion_proof: z.array(z.string()),
  }),
);
