import { parseSkill, SKILL_FORMATS } from '@skillhub/skill-formats';
import { EXIT } from './exit-codes';
import { skillTemplate } from './skill-templates';

const files = (format: (typeof SKILL_FORMATS)[number], name = 'greeter') =>
  skillTemplate(format, { name, author: 'acme-labs', description: 'Greets people: by "name".' }).map((f) => ({
    path: f.path,
    content: Buffer.from(f.content),
  }));

describe('skill templates (init)', () => {
  it.each(SKILL_FORMATS)('scaffolds a %s skill that the parser accepts without a warning', (format) => {
    const { skill, problems } = parseSkill(files(format), {
      namespace: 'acme-labs',
      version: '0.1.0',
      folderName: 'greeter',
    });
    expect(problems).toEqual([]);
    expect(skill).toMatchObject({ format, name: 'greeter', version: '0.1.0', namespace: 'acme-labs' });
    expect(skill!.description).toBe('Greets people: by "name".');
  });

  it('names the Kazma entry point after the skill', () => {
    expect(files('kazma', 'daily-forecast').map((f) => f.path)).toEqual([
      'skill_manifest.yaml',
      'daily_forecast.py',
      'README.md',
    ]);
  });

  it('refuses a name no format takes', () => {
    for (const name of ['Greeter', 'greet--er', '-greeter', 'a'.repeat(65)]) {
      expect(() => files('kazma', name)).toThrow(expect.objectContaining({ exitCode: EXIT.usage }));
    }
  });
});
