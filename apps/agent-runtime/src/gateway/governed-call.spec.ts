import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { compileOutputsSchema, readCallPolicy, type OutputsValidator } from '@skillhub/gate';
import { type EscalationAnswer, governedCall, MAX_ESCALATIONS } from './governed-call';

const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });
const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });
const timedOut = () => new McpError(ErrorCode.RequestTimeout, 'Request timed out');
const text = (result: CallToolResult): string[] =>
  result.content.map((part) => (part.type === 'text' ? part.text : ''));

/** Runs a call whose tries answer in turn from `answers` (an Error is thrown), recording what happened. */
async function run(
  constraints: unknown,
  answers: Array<CallToolResult | Error>,
  options: { outputs?: OutputsValidator; escalate?: EscalationAnswer[] } = {},
) {
  const timeouts: number[] = [];
  const waits: number[] = [];
  const notes: string[] = [];
  const asked: string[] = [];
  const result = await governedCall(
    'mcp__notes__get_note',
    readCallPolicy(constraints, 60_000),
    options.outputs ?? null,
    {
      attempt: async (timeoutMs) => {
        timeouts.push(timeoutMs);
        const answer = answers.shift();
        if (answer === undefined) throw new Error('no more answers');
        if (answer instanceof Error) throw answer;
        return answer;
      },
      escalate: async (failure) => {
        asked.push(failure);
        return options.escalate?.shift() ?? 'cannot-ask';
      },
      note: (message) => notes.push(message),
      sleep: async (ms) => void waits.push(ms),
    },
  );
  return { result, timeouts, waits, notes, asked };
}

describe('governedCall', () => {
  it('answers a first good result as it is, within the skill’s timeout', async () => {
    const { result, timeouts } = await run({ timeout_seconds: 1 }, [ok('the note')]);
    expect(result).toEqual(ok('the note'));
    expect(timeouts).toEqual([1_000]);
  });

  it('answers a timeout as the error it is, saying the call was cancelled', async () => {
    const { result } = await run({ timeout_seconds: 1 }, [timedOut()]);
    expect(result.isError).toBe(true);
    expect(text(result)).toEqual([
      "Skill Hub: mcp__notes__get_note failed: it ran longer than 1 s (the skill's constraints.timeout_seconds), so it was cancelled",
    ]);
  });

  it('tries again after each backoff, and succeeds when a retry does', async () => {
    const { result, waits, notes } = await run({ retry: { attempts: 3, backoff: 'exponential' } }, [
      toolError('busy'),
      new Error('Connection closed'),
      ok('the note'),
    ]);
    expect(result).toEqual(ok('the note'));
    expect(waits).toEqual([1_000, 2_000]);
    expect(notes).toEqual([
      'mcp__notes__get_note: try 1 failed (the tool answered with an error); trying again in 1000 ms',
      'mcp__notes__get_note: try 2 failed (the call failed: Connection closed); trying again in 2000 ms',
    ]);
  });

  it('answers the last failure once the tries are spent, with the tool’s own error after it', async () => {
    const { result } = await run({ retry: { attempts: 1, backoff: 'none' } }, [
      toolError('busy'),
      toolError('still busy'),
    ]);
    expect(text(result)).toEqual([
      'Skill Hub: mcp__notes__get_note failed after 2 tries: the tool answered with an error',
      'still busy',
    ]);
  });

  it('checks a decision result against its outputs and fails it field by field', async () => {
    const compiled = compileOutputsSchema({
      type: 'object',
      properties: { verdict: { enum: ['pass', 'fail'] }, reasoning: { type: 'string' } },
      required: ['reasoning'],
    });
    if (!compiled.ok) throw new Error(compiled.problem);
    const { result } = await run({}, [ok('{"verdict":"maybe"}')], { outputs: compiled.validate });
    expect(text(result)).toEqual([
      'Skill Hub: mcp__notes__get_note failed: its result breaks the skill\'s outputs schema: /: must have required property \'reasoning\'; /verdict: must be equal to one of the allowed values ("pass", "fail")',
    ]);
  });

  it('on escalate_to_human, asks whether to try again, and tries while the human says yes', async () => {
    const yes = await run({ on_failure: 'escalate_to_human' }, [toolError('busy'), ok('the note')], {
      escalate: ['retry'],
    });
    expect(yes.result).toEqual(ok('the note'));
    expect(yes.asked).toEqual(['the tool answered with an error']);

    const no = await run({ on_failure: 'escalate_to_human' }, [toolError('busy')], { escalate: ['declined'] });
    expect(text(no.result)[0]).toBe(
      'Skill Hub: mcp__notes__get_note failed: the tool answered with an error; on_failure is escalate_to_human, and the human declined to try again',
    );

    const nobody = await run({ on_failure: 'escalate_to_human' }, [toolError('busy')]);
    expect(text(nobody.result)[0]).toContain('and this client cannot be asked (no elicitation)');
  });

  it('stops sending a call back after MAX_ESCALATIONS', async () => {
    const failures = Array.from({ length: MAX_ESCALATIONS + 1 }, () => toolError('busy'));
    const { result, asked } = await run({ on_failure: 'escalate_to_human' }, failures, {
      escalate: Array.from({ length: MAX_ESCALATIONS + 1 }, () => 'retry' as const),
    });
    expect(asked).toHaveLength(MAX_ESCALATIONS);
    expect(text(result)[0]).toContain(`it was sent back ${MAX_ESCALATIONS} times, the most allowed`);
  });

  it('on retry tries once more, and on fallback says there is none to run', async () => {
    const retry = await run({ on_failure: 'retry' }, [toolError('busy'), ok('the note')]);
    expect(retry.result).toEqual(ok('the note'));

    const fallback = await run({ on_failure: 'fallback' }, [toolError('busy')]);
    expect(text(fallback.result)[0]).toBe(
      'Skill Hub: mcp__notes__get_note failed: the tool answered with an error; on_failure is fallback, but SwarmKit names no fallback to run, so the failure is answered',
    );
  });
});
