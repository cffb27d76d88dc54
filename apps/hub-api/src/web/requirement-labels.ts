/**
 * Each requirement of the report in words (the level rule that uses them is in
 * libs/certification/src/level-rule.ts and docs/security.md). Typed by the requirement names,
 * so a requirement added to the policy does not compile until it has its words here.
 */
import type { RequirementName } from '@skillhub/certification';

export const REQUIREMENT_LABELS: Readonly<Record<RequirementName, string>> = {
  manifest_valid: 'The manifest is valid',
  security_lint_pass: 'The security lint passes (score of 80 or more, no high finding in the code)',
  no_critical_vulnerabilities: 'No critical vulnerability',
  entry_point_exists: 'The entry point is a file of the bundle',
  description_complete: 'The description is complete',
  license_present: 'A license is named',
  paths_safe: 'Every path in the bundle is safe',
  checksum_valid: 'The Kazma checksum matches the entry point',
  signature_valid: 'The signature verifies',
  namespace_owned: 'The namespace belongs to the publisher',
  packages_exist: 'Every package it names exists',
  packages_pinned: 'Every package is pinned to one version',
  code_analysed: 'Every code file was parsed',
  capabilities_declared: 'Everything the code does is declared',
  no_dangerous_capabilities: 'The code does nothing dangerous',
  launch_specs_pinned: 'Every MCP server is pinned exactly',
  live_tools_recorded: "Every MCP server's live tools were recorded",
  no_hidden_text: 'No hidden text',
  no_review_findings: 'Nothing needs a review',
};

const known: Readonly<Record<string, string>> = REQUIREMENT_LABELS;

/** The words for a requirement; one an earlier policy stored under another name shows its id. */
export const requirementLabel = (id: string): string => (Object.hasOwn(known, id) ? known[id]! : id);
