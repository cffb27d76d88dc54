/**
 * Is the live definition of a tool the one somebody vouched for? Two sources, and the reason always
 * says which one applied, so a refusal never claims a certification that did not happen:
 * - `certificate`: a skill's server. Each certificate of a skill that names the server records the
 *   hash of every tool the server listed in the sandbox at certification (docs/security.md, C13). The tool
 *   must be pinned, with the live hash, by every one of them: a tool absent from a certificate, or
 *   whose definition differs, is blocked until a version certified with that definition is installed.
 * - `first-use`: a server the operator configured. Nobody certified it; the runtime pinned each
 *   definition the first time it saw it (trust on first use), and a later change is blocked until the
 *   operator reviews it and clears the pin.
 * Pure; never throws: anything unreadable is a block.
 */
import { quote, escaped } from './quoted';
import { type ToolDefinition, isToolDefinitionHash, toolDefinitionHash } from './tool-definition-hash';

/** One certificate's pin for a tool: the skill version it certified, and the hash (null: not recorded). */
export interface CertifiedToolPin {
  /** `author/name@version`. */
  certifiedAs: string;
  hash: string | null;
}

export type ToolPin =
  /** A skill server: one entry per certificate that lets it run (several skills may name one server). */
  | { source: 'certificate'; certifications: readonly CertifiedToolPin[] }
  /** An operator server: the hash pinned when the runtime first saw the tool; null before that. */
  | { source: 'first-use'; hash: string | null };

export interface ToolIntegrity {
  ok: boolean;
  /** Starts with `integrity: `; safe to log and to show a client. */
  reason: string;
}

const TOFU = 'trust on first use: a server the operator configured, which nothing certified';

/** `tool` is the raw tool name (the server's own, without `mcp__<server>__`). */
export function checkToolIntegrity(
  tool: string,
  liveDefinition: ToolDefinition | null | undefined,
  pin: ToolPin,
): ToolIntegrity {
  try {
    return check(tool, liveDefinition, pin);
  } catch (error) {
    const why = error instanceof Error ? escaped(String(error.message)) : 'an unreadable value';
    return blocked(`the definition of ${quote(String(tool))} cannot be checked (${why}); blocked`);
  }
}

function check(tool: string, liveDefinition: ToolDefinition | null | undefined, pin: ToolPin): ToolIntegrity {
  const name = quote(tool);
  if (liveDefinition === undefined || liveDefinition === null) {
    return blocked(`no live definition of ${name} was given to check against its pin; blocked`);
  }
  if (pin.source === 'first-use') {
    if (pin.hash === null) return passed(`${name} is seen for the first time and not pinned yet (${TOFU})`);
    if (!isToolDefinitionHash(pin.hash)) return blocked(`the pin of ${name} is malformed; blocked (${TOFU})`);
    const live = toolDefinitionHash(liveDefinition);
    if (live !== pin.hash) {
      return blocked(
        `the definition of ${name} changed since this runtime first saw it (live ${short(live)}, pinned ${short(pin.hash)}); ` +
          `blocked until the operator reviews the change and clears its pin (${TOFU})`,
      );
    }
    return passed(`the definition of ${name} is the one this runtime pinned when it first saw it (${TOFU})`);
  }
  const certifications = [...pin.certifications];
  if (certifications.length === 0)
    return blocked(`no certificate pins the tools of this server, so ${name} is blocked`);
  const live = toolDefinitionHash(liveDefinition);
  for (const { certifiedAs, hash } of certifications) {
    const where = `at certification of ${escaped(String(certifiedAs))}`;
    if (hash === null) {
      return blocked(
        `no definition of ${name} was recorded ${where}, so it is blocked: only the tools its certificate pins may run`,
      );
    }
    if (!isToolDefinitionHash(hash)) return blocked(`the hash recorded for ${name} ${where} is malformed; blocked`);
    if (hash !== live) {
      return blocked(
        `the definition of ${name} differs from the one recorded ${where} (live ${short(live)}, certified ${short(hash)}); ` +
          'blocked until a version certified with this definition is installed',
      );
    }
  }
  const skills = certifications.map(({ certifiedAs }) => escaped(String(certifiedAs))).join(', ');
  return passed(`the definition of ${name} is the one recorded at certification of ${skills}`);
}

const passed = (reason: string): ToolIntegrity => ({ ok: true, reason: `integrity: ${reason}` });
const blocked = (reason: string): ToolIntegrity => ({ ok: false, reason: `integrity: ${reason}` });
const short = (hash: string): string => `${hash.slice(0, 12)}…`;
