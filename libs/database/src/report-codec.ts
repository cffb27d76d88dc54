/**
 * The certification report as it is stored (the `report` jsonb of certifications and
 * submissions), encoded and decoded in this one place. `record()` encodes what `certify` said;
 * every reader decodes, so no reader casts stored JSON to the type it hopes for.
 *
 * Decoding also reads what an older policy stored: a revoked version carries its last report
 * into every later policy (PolicyUpgrade), so requirement and check names of an earlier
 * policy may appear, and the evidence added since (C11 capabilities, C15 servers, C9
 * provenance, C16 detonation) reads as none recorded.
 */
import { z } from 'zod';
import {
  CHECK_IDS,
  DETONATION_EVENT_KINDS,
  REQUIREMENT_NAMES,
  type CertificationReport,
  type CheckId,
  type CheckStatus,
} from '@skillhub/certification';
import { CAPABILITY_KINDS } from '@skillhub/code-analysis';
import { DomainError, type Problem } from '@skillhub/errors';
import { CERTIFICATE_LEVELS, SERVER_LAUNCHES, SERVER_TRANSPORTS } from '@skillhub/signing';
import type { JsonDocument } from './entities/json-document';

/** A report as any policy stored it; what the current policy writes is a `CertificationReport`. */
export type StoredReport = Omit<CertificationReport, 'requirementsMet' | 'checks'> & {
  requirementsMet: Record<string, boolean>;
  checks: Partial<Record<CheckId, CheckStatus>>;
};

/** The stored JSON is not a report: the database holds something no certifier wrote. */
export class StoredReportError extends DomainError {
  constructor(problems: Problem[]) {
    super(
      'internal',
      'REPORT.CORRUPT',
      `The stored certification report is malformed: ${describe(problems)}`,
      problems,
    );
  }
}

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
const CHECK_STATUSES = ['pass', 'fail', 'warn', 'inconclusive', 'skipped'] as const;
const REGISTRIES = ['npm', 'pypi'] as const;

type ObjectOf = typeof z.strictObject | typeof z.looseObject;

/**
 * The report's schemas, built with `object` for every object in it: strict when encoding (a
 * field the codec does not know is refused, never dropped), loose when decoding (what is
 * stored is shown as stored).
 */
function reportSchemas(object: ObjectOf) {
  const finding = object({
    rule: z.string(),
    check: z.enum(CHECK_IDS),
    severity: z.enum(SEVERITIES),
    file: z.string().nullable(),
    line: z.number().int().nullable(),
    message: z.string(),
    fixHint: z.string(),
  });
  const pinnedPackage = object({
    registry: z.enum(REGISTRIES),
    name: z.string(),
    version: z.string(),
    integrity: z.string(),
  });
  const capability = object({
    capability: z.enum(CAPABILITY_KINDS),
    permission: z.string(),
    declared: z.boolean(),
    uses: z.array(object({ file: z.string(), line: z.number().int(), evidence: z.string() })),
    more: z.number().int(),
  });
  const server = object({
    name: z.string(),
    transport: z.enum(SERVER_TRANSPORTS),
    launch: z.enum(SERVER_LAUNCHES),
    argv: z.array(z.string()),
    url: z.string().nullable(),
    package: pinnedPackage.nullable(),
    file: z.string().nullable(),
    env: z.record(z.string(), z.string()),
    cwd: z.string().nullable(),
    tools: z.record(z.string(), z.string()).nullable(),
    lock: object({
      name: z.string(),
      version: z.string(),
      wheels: z.array(object({ name: z.string(), version: z.string(), sha256: z.string() })),
    }).optional(),
  });
  const provenance = object({
    registry: z.enum(REGISTRIES),
    name: z.string(),
    version: z.string(),
    repository: z.string().nullable(),
    attestation: z.string().nullable(),
  });
  const detonation = object({
    ran: z.array(
      object({
        what: z.string(),
        file: z.string().nullable(),
        line: z.number().int().nullable(),
        exit: z.number().int().nullable(),
        timedOut: z.boolean(),
      }),
    ),
    events: z.array(
      object({ kind: z.enum(DETONATION_EVENT_KINDS), detail: z.string(), program: z.string(), evidence: z.string() }),
    ),
    notRun: z.array(object({ what: z.string(), reason: z.string() })),
  });
  /** What every policy's report holds. */
  const common = {
    status: z.enum(['certified', 'failed', 'inconclusive']),
    level: z.enum(CERTIFICATE_LEVELS),
    score: z.number(),
    findings: z.array(finding),
    files: z.array(object({ path: z.string(), size: z.number().int(), sha256: z.string() })),
    toolHashes: z.record(z.string(), z.string()),
    pinnedPackages: z.array(pinnedPackage),
    manifestSha256: z.string().nullable(),
    entryPointChecksum: z.string().nullable(),
    policyVersion: z.number().int(),
    resultsSha256: z.string(),
    issuedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
  };
  return { common, capability, server, provenance, detonation };
}

const encoding = reportSchemas(z.strictObject);
const decoding = reportSchemas(z.looseObject);

/** What the current policy writes: every requirement and check by its current name, all evidence. */
const currentReport: z.ZodType<CertificationReport> = z.strictObject({
  ...encoding.common,
  requirementsMet: z.record(z.enum(REQUIREMENT_NAMES), z.boolean()),
  checks: z.record(z.enum(CHECK_IDS), z.enum(CHECK_STATUSES)),
  capabilities: z.array(encoding.capability),
  servers: z.array(encoding.server),
  provenance: z.array(encoding.provenance),
  detonation: encoding.detonation.nullable(),
});

const storedReport: z.ZodType<StoredReport, unknown> = z.looseObject({
  ...decoding.common,
  requirementsMet: z.record(z.string(), z.boolean()),
  checks: z.partialRecord(z.enum(CHECK_IDS), z.enum(CHECK_STATUSES)),
  capabilities: z.array(decoding.capability).default([]),
  servers: z.array(decoding.server).default([]),
  provenance: z.array(decoding.provenance).default([]),
  detonation: decoding.detonation.nullable().default(null),
});

/** The JSON to store; refuses a report that is not exactly the current shape, so nothing half-typed is written. */
export function encodeReport(report: CertificationReport): JsonDocument {
  const parsed = currentReport.safeParse(report);
  if (!parsed.success) throw new StoredReportError(problemsOf(parsed.error));
  return parsed.data;
}

/** The stored JSON as a typed report; a value no certifier wrote throws `StoredReportError`. */
export function decodeReport(stored: unknown): StoredReport {
  const parsed = storedReport.safeParse(stored);
  if (!parsed.success) throw new StoredReportError(problemsOf(parsed.error));
  return parsed.data;
}

/** As `decodeReport`, for the nullable column (a version not judged yet). */
export function decodeOptionalReport(stored: unknown): StoredReport | null {
  return stored === null || stored === undefined ? null : decodeReport(stored);
}

function problemsOf(error: z.ZodError): Problem[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
    severity: 'error' as const,
  }));
}

function describe(problems: Problem[]): string {
  const first = problems[0];
  const where = first?.path ? `${first.path}: ` : '';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return `${where}${first?.message ?? 'not a report'}${more}`;
}
