/**
 * One call of a skill's tool under its SwarmKit constraints (libs/gate call-policy.ts says what
 * each one means): every try is cancelled at the timeout, a failed try is tried again after its
 * backoff, a decision result is checked against the skill's `outputs`, and once the tries are
 * spent `on_failure` decides: the failure is answered (fail, retry, fallback, each saying so), or
 * the client's human is asked whether to try again (escalate_to_human). The call was approved
 * once, before its first try; the tries after it are that same call.
 */
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { type CallPolicy, type OutputsValidator, resultProblems, retryDelayMs } from '@skillhub/gate';

/** What a human said when asked to try a failed call again. */
export type EscalationAnswer = 'retry' | 'declined' | 'cannot-ask';

export interface GovernedCallHooks {
  /** One try, to be cancelled after `timeoutMs`. */
  attempt(timeoutMs: number): Promise<CallToolResult>;
  /** Puts `failure` to the client's human (on_failure: escalate_to_human). */
  escalate(failure: string): Promise<EscalationAnswer>;
  /** Told before each retry. */
  note?(message: string): void;
  /** Aborted when the client gave up on the call: no try follows. */
  signal?: AbortSignal;
  sleep?(ms: number): Promise<void>;
}

/** A human may send a call back this many times; then its failure stands. */
export const MAX_ESCALATIONS = 3;

type Outcome = { ok: true; result: CallToolResult } | { ok: false; failure: string; result: CallToolResult | null };

export async function governedCall(
  label: string,
  policy: CallPolicy,
  outputs: OutputsValidator | null,
  hooks: GovernedCallHooks,
): Promise<CallToolResult> {
  const sleep = hooks.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let tries = 0;
  let escalations = 0;
  for (;;) {
    const outcome = await tryOnce(policy, outputs, hooks);
    tries++;
    if (outcome.ok) return outcome.result;
    if (hooks.signal?.aborted) return failed(label, tries, outcome, '');
    if (tries <= policy.retries) {
      const delay = retryDelayMs(policy, tries);
      hooks.note?.(`${label}: try ${tries} failed (${outcome.failure}); trying again in ${delay} ms`);
      await sleep(delay);
      continue;
    }
    switch (policy.onFailure) {
      case 'escalate_to_human': {
        if (escalations >= MAX_ESCALATIONS) {
          return failed(label, tries, outcome, `; it was sent back ${MAX_ESCALATIONS} times, the most allowed`);
        }
        const answer = await hooks.escalate(outcome.failure);
        if (answer === 'retry') {
          escalations++;
          continue;
        }
        const why =
          answer === 'declined' ? 'the human declined to try again' : 'this client cannot be asked (no elicitation)';
        return failed(label, tries, outcome, `; on_failure is escalate_to_human, and ${why}`);
      }
      case 'fallback':
        return failed(
          label,
          tries,
          outcome,
          '; on_failure is fallback, but SwarmKit names no fallback to run, so the failure is answered',
        );
      default:
        return failed(label, tries, outcome, '');
    }
  }
}

async function tryOnce(
  policy: CallPolicy,
  outputs: OutputsValidator | null,
  hooks: GovernedCallHooks,
): Promise<Outcome> {
  let result: CallToolResult;
  try {
    result = await hooks.attempt(policy.timeoutMs);
  } catch (error) {
    if (error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number)) {
      const limit = policy.timeoutFromSkill ? "the skill's constraints.timeout_seconds" : "the runtime's call timeout";
      return {
        ok: false,
        failure: `it ran longer than ${policy.timeoutMs / 1000} s (${limit}), so it was cancelled`,
        result: null,
      };
    }
    return { ok: false, failure: `the call failed: ${(error as Error).message}`, result: null };
  }
  if (result.isError === true) return { ok: false, failure: 'the tool answered with an error', result };
  const problems = outputs ? resultProblems(outputs, result) : [];
  if (problems.length > 0) {
    return { ok: false, failure: `its result breaks the skill's outputs schema: ${problems.join('; ')}`, result: null };
  }
  return { ok: true, result };
}

/** The failure as the client gets it; a tool's own error content follows the reason. */
function failed(
  label: string,
  tries: number,
  outcome: Extract<Outcome, { ok: false }>,
  onFailure: string,
): CallToolResult {
  const times = tries > 1 ? ` after ${tries} tries` : '';
  return {
    isError: true,
    content: [
      { type: 'text', text: `Skill Hub: ${label} failed${times}: ${outcome.failure}${onFailure}` },
      ...(outcome.result?.content ?? []),
    ],
  };
}
