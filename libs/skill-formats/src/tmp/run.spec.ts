import { parseSkill } from '@skillhub/skill-formats';
import { loadFixture } from '../testing/skill-files';
it('x', () => {
  for (const f of ['kazma/weather-report', 'kazma/broken', 'swarmkit/brave-web-search', 'swarmkit/broken', 'agent-skill/pdf-tools', 'agent-skill/broken']) {
    console.log(f, JSON.stringify(parseSkill(loadFixture(f), { namespace: 'acme', version: '1.0.0', folderName: f.split('/')[1] }), null, 1));
  }
});
