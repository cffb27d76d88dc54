import type { LiveServerProbe } from '../live-server';
import { certificationInput, kazmaFiles, swarmkitFiles } from '../testing/certification-fixtures';
import { describeLikeness, likeness, likenessRank, likenessSeverity, namesPeopleRead } from './name-similarity';

describe('name likeness, as C10 judges it', () => {
  it.each([
    ['weather', 'weather', { kind: 'same' }, 'medium', 'is the same as'],
    ['Weather', 'weather', { kind: 'same' }, 'medium', 'is the same as'],
    ['rnodel-tool', 'model_tool', { kind: 'confusable' }, 'high', 'is spelled confusably like'],
    ['g00gle-search', 'google-search', { kind: 'confusable' }, 'high', 'is spelled confusably like'],
    ['w\u0435ather', 'weather', { kind: 'confusable' }, 'high', 'is spelled confusably like'],
    ['web-search', 'web-serach', { kind: 'near', distance: 1 }, 'medium', 'is 1 edit away from'],
    ['web-search', 'web-seatch2', { kind: 'near', distance: 2 }, 'medium', 'is 2 edits away from'],
  ])('%s / %s', (a, b, alike, severity, described) => {
    const found = likeness(a, b);
    expect(found).toEqual(alike);
    expect([likenessSeverity(found!), describeLikeness(found!)]).toEqual([severity, described]);
  });

  it.each([
    ['web-search', 'web-scratch'],
    ['git', 'gh'],
  ])('%s and %s are not alike', (a, b) => {
    expect(likeness(a, b)).toBeNull();
  });

  it('ranks the same name first, then lookalikes, then by distance', () => {
    const ranks = [
      { kind: 'near', distance: 2 },
      { kind: 'same' },
      { kind: 'near', distance: 1 },
      { kind: 'confusable' },
    ]
      .map((alike) => alike as Parameters<typeof likenessRank>[0])
      .sort((a, b) => likenessRank(a) - likenessRank(b));
    expect(ranks).toEqual([
      { kind: 'same' },
      { kind: 'confusable' },
      { kind: 'near', distance: 1 },
      { kind: 'near', distance: 2 },
    ]);
  });
});

describe('namesPeopleRead', () => {
  it("reads a Kazma skill's author, name, tools and servers, and the live tools of its servers", () => {
    const { skill } = certificationInput(kazmaFiles());
    const live: LiveServerProbe = {
      server: 'weather',
      outcome: 'listed',
      detail: '',
      tools: [{ name: 'forecast' }, { name: 'alerts' }],
      prompts: [],
      resources: [],
    };

    expect(namesPeopleRead(skill!, [live]).map((name) => [name.role, name.value, name.file])).toEqual([
      ['author', 'Acme', 'skill_manifest.yaml'],
      ['name', 'weather-report', 'skill_manifest.yaml'],
      ['tool name', 'get_forecast', 'skill_manifest.yaml'],
      ['server name', 'weather', 'skill_manifest.yaml'],
      ['tool name', 'forecast', 'skill_manifest.yaml'],
      ['tool name', 'alerts', 'skill_manifest.yaml'],
    ]);
  });

  it("reads a SwarmKit skill's display name, the tool it calls and the server its workspace declares", () => {
    const { skill } = certificationInput(swarmkitFiles());

    expect(namesPeopleRead(skill!, []).map((name) => [name.role, name.value, name.file])).toEqual([
      ['author', 'acme', 'skill.yaml'],
      ['name', 'web-search', 'skill.yaml'],
      ['display name', 'Web search', 'skill.yaml'],
      ['tool name', 'web_search', 'skill.yaml'],
      ['server name', 'search', 'workspace.yaml'],
    ]);
  });
});
