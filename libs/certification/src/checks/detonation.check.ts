/**
 * C16 detonation: the second, independent layer. What the skill would run (its scripts, the shell
 * blocks its instructions tell an agent to run, a Kazma skill's tools) was run by the worker in the
 * sandbox, without network, with honeytokens planted where thieves look and every system call that
 * matters traced (libs/detonation). Harm seen there is proven, whatever the static analysis said:
 * a honeytoken read, a connection or name lookup, a shell started by a non-shell program, a
 * downloader started, a persistence location written. A skill that was not detonated (the worker
 * has no sandbox, or detonation is off) is neither failed nor raised: an info finding says so.
 */
import { skip, type Check } from '../check';
import type { DetonationEvent, DetonationEventKind, DetonationResult } from '../detonation-result';
import { newFinding, type Finding, type Severity } from '../finding';

/** What each kind of event proves, its severity and how to fix it. */
const EVENT_RULES: Readonly<Record<DetonationEventKind, { severity: Severity; says: string; fixHint: string }>> = {
  'honeytoken-read': {
    severity: 'critical',
    says: 'opened a planted credential',
    fixHint: 'A skill never reads credentials it was not given; remove the code that opens this file.',
  },
  connect: {
    severity: 'critical',
    says: 'tried to connect to',
    fixHint:
      'Skills get no network when they are certified; declare what you need as an MCP server the hub can pin, or remove the connection.',
  },
  dns: {
    severity: 'critical',
    says: 'looked up the name',
    fixHint:
      'Skills get no network when they are certified; remove the lookup, or move the call behind a pinned MCP server.',
  },
  'exec-shell': {
    severity: 'critical',
    says: 'started a shell',
    fixHint: 'Run the programs you need directly with an argument list, never through a shell from Python or Node.',
  },
  'exec-downloader': {
    severity: 'critical',
    says: 'started a network tool',
    fixHint:
      'A skill does not download or send anything at run time; ship what it needs in the bundle, or pin a server that provides it.',
  },
  'persistence-write': {
    severity: 'critical',
    says: 'wrote a file that runs later',
    fixHint: 'A skill never writes start-up files, authorized keys, crontabs, hooks or its own instructions.',
  },
  'delete-outside': {
    severity: 'medium',
    says: 'deleted or moved a file outside its scratch folders',
    fixHint: 'Delete only what the skill itself created, in a temporary folder.',
  },
};

/** Programs not run are listed in one info finding, up to this many. */
const NOT_RUN_SHOWN = 10;

export const detonationCheck: Check = {
  id: 'C16',
  decides: [],
  appliesToManifestOnly: false,
  run(input) {
    const result = input.detonation;
    if (!result) {
      return skip(
        'the skill was not detonated (nothing it would run was run in a sandbox), so only the static checks judged what it runs',
        'Nothing to change: the hub detonates skills where its certifier has a sandbox and strace.',
      );
    }
    const declaresNetwork = input.skill?.permissions.includes('network_outbound') ?? false;
    const networkFiles = new Set(
      input.code.analyses.filter((a) => a.capabilities.some((use) => use.capability === 'network')).map((a) => a.path),
    );
    // What the programs printed is judged by C11 and C12 and not kept: the report holds what they did.
    const { ran, events, notRun } = result;
    return {
      findings: detonationFindings(result, { declaresNetwork, networkFiles }),
      evidence: { detonation: { ran, events, notRun } },
    };
  },
};

/** Network events a skill that declares `network_outbound` is allowed: recorded, not failed, unless they carry a canary. */
const DECLARABLE: ReadonlySet<DetonationEventKind> = new Set(['connect', 'dns']);

/**
 * One finding per event, and one info finding each for what ran and what could not run. A skill that
 * declares network use (`network_outbound`) and tries to reach the network in the sandbox does what it
 * said: its connections and lookups are low findings, unless one carries a honeytoken's value. One
 * that does not declare it, from a file whose network use the static analysis already proved (C11
 * reports it undeclared), is a medium finding for review: the two layers agree, nothing was hidden.
 * Network use the static analysis did not see is hidden, and fails.
 */
export function detonationFindings(
  result: DetonationResult,
  skill: { declaresNetwork: boolean; networkFiles?: ReadonlySet<string> },
): Finding[] {
  const findings = result.events.map((event) => {
    const network = DECLARABLE.has(event.kind) && !event.detail.includes(CARRYING);
    const file = result.ran.find((run) => run.what === event.program)?.file;
    const seen = network && file != null && (skill.networkFiles?.has(file) ?? false);
    return eventFinding(event, result, network && skill.declaresNetwork ? 'declared' : seen ? 'seen' : null);
  });
  if (result.ran.length > 0) {
    const timedOut = result.ran.filter((run) => run.timedOut).length;
    findings.push(
      newFinding({
        check: 'C16',
        code: 'ran',
        severity: 'info',
        message:
          `Detonated ${result.ran.length} program${result.ran.length === 1 ? '' : 's'} in the sandbox with honeytokens planted` +
          `${timedOut > 0 ? ` (${timedOut} stopped at the time limit)` : ''}: ${result.ran
            .slice(0, NOT_RUN_SHOWN)
            .map((run) => run.what)
            .join('; ')}${result.ran.length > NOT_RUN_SHOWN ? '; …' : ''}.`,
        fixHint: 'Nothing to change: this records what the detonation ran.',
      }),
    );
  }
  if (result.notRun.length > 0) {
    const shown = result.notRun.slice(0, NOT_RUN_SHOWN).map((entry) => `${entry.what} (${entry.reason})`);
    const more = result.notRun.length - shown.length;
    findings.push(
      newFinding({
        check: 'C16',
        code: 'not-run',
        severity: 'info',
        message: `Not detonated: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`,
        fixHint: 'Nothing to change: the static checks (C11, C15) still judge what was not run.',
      }),
    );
  }
  return findings;
}

/** How trace-events.ts marks a value of a honeytoken seen in a call. */
const CARRYING = 'carrying the value of';

/** Why a network event is not a failure: the skill declares network, or the code was seen to use it there. */
type Explained = 'declared' | 'seen' | null;

function eventFinding(event: DetonationEvent, result: DetonationResult, explained: Explained): Finding {
  const rule = EVENT_RULES[event.kind];
  const run = result.ran.find((candidate) => candidate.what === event.program);
  const because =
    explained === 'declared'
      ? '; the skill declares network_outbound, so this is recorded, not failed.'
      : explained === 'seen'
        ? '; the static analysis found this file using the network (C11), so this is for review, not failed.'
        : '.';
  return newFinding({
    check: 'C16',
    code: event.kind,
    severity: explained === 'declared' ? 'low' : explained === 'seen' ? 'medium' : rule.severity,
    file: run?.file ?? null,
    line: run?.line ?? null,
    message: `Run in the sandbox, ${event.program} ${rule.says} ${event.detail} (traced: ${event.evidence})${because}`,
    fixHint:
      explained === 'declared'
        ? 'Nothing to change if this is the service the skill is for.'
        : explained === 'seen'
          ? 'Declare network_outbound if the skill needs the network (a reviewer can clear this finding), or remove the connection.'
          : rule.fixHint,
  });
}
