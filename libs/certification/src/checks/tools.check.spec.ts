import { toolDefinitionHash } from '@skillhub/gate';
import { certify } from '../certify';
import { certificationInput, findingsOf, kazmaFiles, kazmaProbes } from '../testing/certification-fixtures';

describe('C13 tools', () => {
  it("pins the hash the runtime computes for each declared tool's name and description", () => {
    const report = certify(certificationInput(kazmaFiles(), { probes: kazmaProbes() }));

    expect(report.toolHashes).toEqual({
      get_forecast: toolDefinitionHash({
        name: 'get_forecast',
        description: 'Returns the forecast for a city for the next few days.',
      }),
    });
    expect(report.checks.C13).toBe('pass');
  });

  it('keeps a tool named __proto__ as a key like any other', () => {
    const input = certificationInput(kazmaFiles(), { probes: kazmaProbes() });
    const skill = { ...input.skill!, tools: [{ name: '__proto__', description: 'odd but allowed' }] };

    const report = certify({ ...input, skill });

    expect(Object.keys(report.toolHashes)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(report.toolHashes)).toBe(Object.prototype);
  });

  it('fails when two tools share a name, since the runtime could not tell which one is pinned', () => {
    const input = certificationInput(kazmaFiles(), { probes: kazmaProbes() });
    const tool = { name: 'get', description: 'Gets.' };
    const report = certify({ ...input, skill: { ...input.skill!, tools: [tool, { ...tool, description: 'Other.' }] } });

    expect(findingsOf(report, 'C13.check-error')[0]?.message).toContain('"get" is declared twice');
    expect(report.status).toBe('failed');
  });
});
