export {
  DANGER_KEYWORDS,
  SENSITIVE_WORDS,
  SAFE_TOKENS,
  MAX_CLASSIFIED_NAME_LENGTH,
  classifyTool,
  explainToolClass,
  needsApprovalByClass,
  type ToolClass,
  type ToolClassification,
  type ClassificationRule,
  type DangerKeyword,
  type SensitiveWord,
  type SafeToken,
} from './tool-classifier';
export {
  NAMESPACE_PREFIX,
  NAMESPACE_SEPARATOR,
  MAX_SERVER_NAME_LENGTH,
  MAX_TOOL_NAME_LENGTH,
  MAX_NAMESPACED_TOOL_NAME_LENGTH,
  namespacedToolName,
  parseNamespacedToolName,
  serverNameProblem,
  toolNameProblem,
  isValidServerName,
  isValidToolName,
  type NamespacedToolName,
} from './tool-name';
// What the gate compares (presets, arguments) is spelled by the canonical JSON certificates use.
export { canonicalJson } from '@skillhub/signing';
export {
  TOOL_DEFINITION_HASH_PATTERN,
  canonicalToolJson,
  toolDefinitionHash,
  isToolDefinitionHash,
  type ToolDefinition,
} from './tool-definition-hash';
export { APPROVAL_FLAG_KEY, takeApprovalFlag, type TakenArguments, type ToolArguments } from './tool-arguments';
export {
  DEFAULT_SERVER_TRUST,
  SERVER_TRUSTS,
  TRUSTED_IN_PROD_ENV,
  resolveEffectiveTrust,
  type EffectiveTrust,
  type GateEnvironment,
  type ServerTrust,
} from './server-trust';
export {
  EMPTY_PRE_APPROVAL_POLICY,
  MAX_PRE_APPROVAL_PATTERNS,
  createPreApprovalPolicy,
  findPreApproval,
  matchesPreApproval,
  preApprovalPatternProblem,
  type PreApprovalPolicy,
} from './pre-approval.policy';
export { checkToolIntegrity, type CertifiedToolPin, type ToolIntegrity, type ToolPin } from './tool-integrity';
export {
  POLICY_EVALUATION_FAILED,
  decideToolCall,
  type GateDecision,
  type GateInput,
  type GateServer,
  type GateVerdict,
  type ToolAnnotations,
  type ToolGovernance,
} from './gate-decision';
export {
  PERMISSION_TIERS,
  TOOL_EFFECTS,
  describeTiers,
  type PermissionTier,
  type TierSetting,
  type ToolEffect,
} from './permission-tier';
export { withoutPresetProperties } from './preset-arguments';
export { missingScopes } from './iam-scopes';
export { readCallPolicy, retryDelayMs, type CallPolicy } from './call-policy';
export { compileOutputsSchema, resultProblems, type OutputsValidator } from './outputs-schema';
export {
  GATE_INVALID_PRE_APPROVAL_POLICY,
  GATE_INVALID_TOOL_NAME,
  InvalidPreApprovalPolicyError,
  InvalidToolNameError,
} from './gate.errors';
export {
  AUDIT_LEVELS,
  DEFAULT_AUDIT_POLICY,
  auditView,
  readAuditPolicy,
  type AuditLevel,
  type AuditPolicy,
} from './call-audit';
