/**
 * Server trust as Kazma's server config spells it: `approval_required` (the default) or
 * `trusted`, where `trusted` lets danger and unknown tools run without approval.
 * Production ignores `trusted` unless KAZMA_MCP_TRUSTED_IN_PROD=1: one config line must
 * not silently switch off approvals on a production box. This lib reads no environment;
 * callers (libs/config) read the variable and pass `trustedInProdAllowed`.
 */
export type ServerTrust = 'approval_required' | 'trusted';

export const SERVER_TRUSTS: readonly ServerTrust[] = Object.freeze(['approval_required', 'trusted'] as const);
export const DEFAULT_SERVER_TRUST: ServerTrust = 'approval_required';

/** The variable that lets `trusted` count in production (read by the config schema, libs/config). */
export const TRUSTED_IN_PROD_ENV = 'KAZMA_MCP_TRUSTED_IN_PROD';

export interface GateEnvironment {
  production: boolean;
  /** KAZMA_MCP_TRUSTED_IN_PROD=1 was set. */
  trustedInProdAllowed: boolean;
}

export interface EffectiveTrust {
  /** The trust the gate acts on. */
  trust: ServerTrust;
  /** Why it differs from what was declared, when it does. */
  reasons: string[];
}

/**
 * The trust the gate acts on. Fails towards approvals: an unrecognised trust value reads
 * as `approval_required`, and an environment that does not say `production: false`
 * explicitly counts as production.
 */
export function resolveEffectiveTrust(declared: unknown, environment: unknown): EffectiveTrust {
  if (declared === undefined || declared === DEFAULT_SERVER_TRUST) return { trust: DEFAULT_SERVER_TRUST, reasons: [] };
  if (declared !== 'trusted') {
    return {
      trust: DEFAULT_SERVER_TRUST,
      reasons: ['server trust: unrecognised value, treated as approval_required'],
    };
  }
  const env = (typeof environment === 'object' && environment !== null ? environment : {}) as Partial<GateEnvironment>;
  const production = env.production !== false;
  if (production && env.trustedInProdAllowed !== true) {
    return {
      trust: DEFAULT_SERVER_TRUST,
      reasons: [
        `server trust: "trusted" is ignored in production unless ${TRUSTED_IN_PROD_ENV}=1; treated as approval_required`,
      ],
    };
  }
  return { trust: 'trusted', reasons: [] };
}
