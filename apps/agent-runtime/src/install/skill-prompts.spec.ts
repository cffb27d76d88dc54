import type { NormalizedSkill } from '@skillhub/skill-formats';
import type { VerifiedSkill } from './verified-skill';
import { composedParts, composedPrompt, type OfferedSkill, skillPrompts } from './skill-prompts';

const swarmkit = (ref: string, manifest: Record<string, unknown>, category = 'capability'): VerifiedSkill =>
  ({
    ref,
    version: '1.0.0',
    path: '/nowhere',
    skill: {
      format: 'swarmkit',
      name: ref.slice(ref.indexOf('/') + 1),
      description: `The ${ref} skill.`,
      category,
      manifest,
    } as unknown as NormalizedSkill,
    statement: {},
  }) as VerifiedSkill;

const offered = (ref: string, more: Partial<OfferedSkill> = {}): OfferedSkill => ({
  ref,
  name: ref.slice(ref.indexOf('/') + 1),
  description: `What ${ref} does.`,
  tools: [],
  prompts: [],
  ...more,
});

describe('skillPrompts', () => {
  it('serves an llm_prompt skill as its prompt, its inputs as arguments', () => {
    const [prompt] = skillPrompts(
      swarmkit('acme/analyze-complaint', {
        implementation: { type: 'llm_prompt', prompt: 'Analyse the complaint.', model: { name: 'any' } },
        inputs: {
          type: 'object',
          properties: { complaint: { type: 'string', description: 'The complaint, as written.' }, order: {} },
          required: ['complaint'],
        },
      }),
    );

    expect(prompt).toEqual({
      name: 'acme/analyze-complaint',
      description: 'The acme/analyze-complaint skill.',
      text: 'Analyse the complaint.',
      arguments: [
        { name: 'complaint', description: 'The complaint, as written.', required: true },
        { name: 'order', required: false },
      ],
    });
  });

  it('asks a decision prompt for an answer in its outputs schema', () => {
    const outputs = { type: 'object', properties: { verdict: { enum: ['pass', 'fail'] }, reasoning: {} } };
    const [prompt] = skillPrompts(
      swarmkit(
        'acme/review',
        { implementation: { type: 'llm_prompt', prompt: 'Review the diff.' }, outputs },
        'decision',
      ),
    );

    expect(prompt!.text).toBe(
      `Review the diff.\n\nAnswer with JSON that matches this JSON Schema:\n${JSON.stringify(outputs, null, 2)}`,
    );
  });

  it('serves nothing as a prompt for an mcp_tool skill', () => {
    expect(
      skillPrompts(swarmkit('acme/read', { implementation: { type: 'mcp_tool', server: 's', tool: 't' } })),
    ).toEqual([]);
  });
});

describe('composedPrompt', () => {
  const composer = swarmkit('acme/triage', {
    implementation: { type: 'composed', composes: ['analyze', 'search'], strategy: 'sequential' },
  });
  const parts = composedParts(composer)!;

  it('lists each part with what it offers, in order, and how to use them', () => {
    const reading = composedPrompt(composer, parts, [
      offered('acme/search', { tools: ['mcp__search__find_notes'] }),
      offered('acme/analyze', { prompts: ['acme/analyze'] }),
    ]);

    expect(reading).toEqual({
      ok: true,
      prompt: {
        name: 'acme/triage',
        description: 'The acme/triage skill.',
        arguments: [],
        text: [
          'The acme/triage skill.',
          '',
          'This skill is made of 2 skills. Use them in this order, each one given the result of the one before it.',
          '1. acme/analyze: What acme/analyze does. (prompts acme/analyze)',
          '2. acme/search: What acme/search does. (tools mcp__search__find_notes)',
        ].join('\n'),
      },
    });
  });

  it('takes the part by the same author first, else the only one of that name', () => {
    const reading = composedPrompt(composer, parts, [
      offered('other/analyze', { prompts: ['other/analyze'] }),
      offered('acme/analyze', { prompts: ['acme/analyze'] }),
      offered('other/search', { tools: ['mcp__search__find'] }),
    ]);
    expect(reading.ok && reading.prompt.text).toContain('1. acme/analyze:');
    expect(reading.ok && reading.prompt.text).toContain('2. other/search:');
  });

  it('is not offered when a part is missing, offers nothing, or could be several skills', () => {
    expect(composedPrompt(composer, parts, [offered('acme/analyze', { prompts: ['acme/analyze'] })])).toEqual({
      ok: false,
      reason:
        'its part search is not an installed skill that offers anything (add acme/search@<range> to skills:, and see its log lines)',
    });
    expect(
      composedPrompt(composer, parts, [offered('acme/analyze'), offered('acme/search', { tools: ['x'] })]).ok,
    ).toBe(false);
    expect(
      composedPrompt(composer, parts, [
        offered('acme/analyze', { prompts: ['acme/analyze'] }),
        offered('one/search', { tools: ['a'] }),
        offered('two/search', { tools: ['b'] }),
      ]),
    ).toEqual({
      ok: false,
      reason: 'its part search could be any of one/search, two/search: install only one of them',
    });
  });
});
