/**
 * The certifier: runs every check (C1-C16) fail-closed on what the worker gathered, scores the
 * skill as Kazma would, and derives requirements, level and status by the level rule. Pure:
 * same input, same verdict bytes. The verdict is undated: `record()` dates it once
 * (`datedReport`).
 */
import { sha256Hex } from '@skillhub/bundle';
import { canonicalJson } from '@skillhub/signing';
import { analyzeBundle } from './bundle-code';
import { pinnedByHub, readLaunchSpecs } from './launch-spec';
import type { CertificationInput } from './certification-input';
import { InvalidCertificationInputError } from './certification.errors';
import { checkStatus, runCheck, type Check, type CheckInput, type CheckRun, type Evidence } from './check';
import type { CheckId } from './check-id';
import { checksumCheck, hmacCheck } from './checks/kazma-signature.check';
import { codeScanCheck } from './checks/code-scan.check';
import { detonationCheck } from './checks/detonation.check';
import { filesCheck } from './checks/files.check';
import { manifestCheck } from './checks/manifest.check';
import { namespaceCheck } from './checks/namespace.check';
import { launchCheck } from './checks/launch.check';
import { packagesCheck } from './checks/packages.check';
import { pathsCheck } from './checks/paths.check';
import { provenanceCheck } from './checks/provenance.check';
import { publisherSignatureCheck } from './checks/publisher-signature.check';
import { squattingCheck } from './checks/squatting.check';
import { textCheck } from './checks/text.check';
import { toolsCheck } from './checks/tools.check';
import { versionsCheck } from './checks/versions.check';
import { compareFindings, isFailing, type Finding } from './finding';
import { kazmaScore, SCORE_FOR_BASIC, SCORE_FOR_NO_CRITICAL, scoreThresholdFindings } from './kazma-score';
import { decideLevel, decideStatus } from './level-rule';
import { certifiedServers } from './certified-servers';
import { REQUIREMENT_NAMES, type CertificationVerdict, type CheckStatus, type RequirementName } from './report';

/** In the order of docs/security.md. */
const CHECKS: readonly Check[] = [
  manifestCheck,
  pathsCheck,
  checksumCheck,
  hmacCheck,
  filesCheck,
  versionsCheck,
  namespaceCheck,
  packagesCheck,
  provenanceCheck,
  squattingCheck,
  codeScanCheck,
  textCheck,
  toolsCheck,
  publisherSignatureCheck,
  launchCheck,
  detonationCheck,
];

const NO_EVIDENCE: Evidence = {
  format: null,
  files: [],
  toolHashes: {},
  pinnedPackages: [],
  manifestSha256: null,
  entryPointChecksum: null,
  capabilities: [],
  launches: [],
  liveTools: {},
  serverLocks: {},
  provenance: [],
  detonation: null,
};

/** Throws InvalidCertificationInputError only for the worker's own arguments (time, policy version). */
export function certify(input: CertificationInput): CertificationVerdict {
  const policyVersion = checkPolicyVersion(input.policyVersion);
  if (!(input.now instanceof Date) || Number.isNaN(input.now.getTime())) {
    throw new InvalidCertificationInputError('now must be a valid Date');
  }
  const checkInput: CheckInput = {
    ...input,
    code: analyzeBundle(input.bundle, input.analyzer, input.skill, input.detonation?.outputs),
    launches: pinnedByHub(
      readLaunchSpecs(
        input.skill?.mcpServers ?? [],
        new Set(input.bundle.files.map((file) => file.path)),
        input.internalAddresses,
      ),
      input.probes,
    ),
  };
  const ran = CHECKS.map((check) => runCheck(check, checkInput));
  const deductions = ran.flatMap((run) => run.outcome.deductions ?? []);
  const score = kazmaScore(deductions);
  // The score is Kazma's security lint, so falling short of a level's threshold is a C11 finding.
  const runs = ran.map((run) => (run.check.id === 'C11' && run.state === 'ran' ? withScoreFindings(run, score) : run));

  const findings = [...runs.flatMap((run) => run.outcome.findings), ...deductions.map((d) => d.finding)].sort(
    compareFindings,
  );
  const checks = Object.fromEntries(runs.map((run) => [run.check.id, checkStatus(run)])) as Record<
    CheckId,
    CheckStatus
  >;
  const requirementsMet = requirements(runs, score, findings);
  const evidence: Evidence = Object.assign(
    { ...NO_EVIDENCE },
    ...runs.map((run) => (run.state === 'ran' ? run.outcome.evidence : undefined)),
  );
  const reached = decideLevel({
    requirements: requirementsMet,
    score,
    format: evidence.format,
    findings,
    hasCode:
      input.skill?.entryPoint != null ||
      [...checkInput.code.kinds.values()].some((kind) => kind.kind !== 'text' && kind.kind !== 'inert'),
  });
  const statuses = Object.values(checks);
  const status = decideStatus({
    failed: statuses.includes('fail'),
    undecided: input.manifestOnly === true || statuses.includes('inconclusive'),
    level: reached,
  });
  const results = {
    status,
    level: status === 'certified' ? reached : 'none',
    findings,
    requirementsMet,
    checks,
  } as const;
  return {
    ...results,
    score,
    files: evidence.files,
    toolHashes: evidence.toolHashes,
    pinnedPackages: evidence.pinnedPackages,
    manifestSha256: evidence.manifestSha256,
    entryPointChecksum: evidence.entryPointChecksum,
    capabilities: evidence.capabilities,
    servers: certifiedServers(evidence),
    provenance: evidence.provenance,
    detonation: evidence.detonation,
    policyVersion,
    resultsSha256: sha256Hex(canonicalJson(results)),
  };
}

function checkPolicyVersion(policyVersion: number): number {
  if (!Number.isSafeInteger(policyVersion) || policyVersion < 0) {
    throw new InvalidCertificationInputError('policyVersion must be an integer of at least 0');
  }
  return policyVersion;
}

function withScoreFindings(run: CheckRun, score: number): CheckRun {
  return { ...run, outcome: { ...run.outcome, findings: [...run.outcome.findings, ...scoreThresholdFindings(score)] } };
}

/**
 * A requirement a check decides is met only when every check deciding it ran and said so; the
 * two Kazma score requirements are decided here, from the score and the C11 scan.
 */
function requirements(
  runs: readonly CheckRun[],
  score: number,
  findings: readonly Finding[],
): Record<RequirementName, boolean> {
  const codeScan = runs.find((run) => run.check.id === 'C11');
  const scanned = codeScan?.state === 'ran';
  const fromScore: Partial<Record<RequirementName, boolean>> = {
    security_lint_pass: score >= SCORE_FOR_BASIC && scanned && !codeScan.outcome.findings.some(isFailing),
    no_critical_vulnerabilities:
      score >= SCORE_FOR_NO_CRITICAL && scanned && !findings.some((finding) => finding.severity === 'critical'),
  };
  const decided = (name: RequirementName): boolean => {
    const deciders = runs.filter((run) => run.check.decides.includes(name));
    return (
      deciders.length > 0 && deciders.every((run) => run.state === 'ran' && run.outcome.requirements?.[name] === true)
    );
  };
  return Object.fromEntries(REQUIREMENT_NAMES.map((name) => [name, fromScore[name] ?? decided(name)])) as Record<
    RequirementName,
    boolean
  >;
}
