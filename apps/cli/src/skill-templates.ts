/**
 * `skillhub init`: a new skill folder in one of the three formats (docs/formats.md), the smallest
 * that `validate` accepts and the certifier judges on its merits: a licence, a described tool, no
 * permission it does not use.
 */
import type { SkillFormat } from '@skillhub/skill-formats';
import { CliError, EXIT } from './exit-codes';

export interface TemplateOptions {
  /** kebab-case: the skill's name (and, for an Agent Skill, its folder's). */
  name: string;
  /** The Kazma manifest's author: the namespace it is published under. */
  author: string;
  description: string;
}

export interface TemplateFile {
  path: string;
  content: string;
}

/** Agent Skills' name rule, the strictest of the three: a-z0-9 and single inner hyphens, at most 64. */
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

const pascal = (name: string) =>
  name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
const title = (name: string) =>
  name
    .split('-')
    .join(' ')
    .replace(/^./, (c) => c.toUpperCase());
/** Quoted as a YAML double-quoted scalar (JSON's string syntax is a subset of it). */
const yamlText = (text: string) => JSON.stringify(text);

export function skillTemplate(format: SkillFormat, options: TemplateOptions): TemplateFile[] {
  const { name, author, description } = options;
  if (!SKILL_NAME.test(name)) {
    throw new CliError(
      `"${name}" is not a skill name`,
      EXIT.usage,
      'Use 1-64 lowercase letters, digits and single hyphens (my-skill); pass --name, or name the folder so.',
    );
  }
  if (description.trim() === '' || description.length > 1024) {
    throw new CliError('--description must be 1-1024 characters', EXIT.usage);
  }
  const readme = { path: 'README.md', content: `# ${title(name)}\n\n${description}\n` };
  switch (format) {
    case 'kazma': {
      const module = name.replace(/-/g, '_');
      const cls = `${pascal(name)}Skill`;
      return [
        {
          path: 'skill_manifest.yaml',
          content: [
            `name: ${name}`,
            'version: 0.1.0',
            `description: ${yamlText(description)}`,
            `author: ${yamlText(author)}`,
            'license: MIT',
            'permissions: []',
            `entry_point: ${module}:${cls}`,
            'tools:',
            '  greet:',
            '    description: Greets someone by name',
            '    category: read',
            '',
          ].join('\n'),
        },
        {
          path: `${module}.py`,
          content: [
            `"""${title(name)}: a Kazma code skill."""`,
            '',
            '',
            `class ${cls}:`,
            '    def greet(self, name: str) -> str:',
            '        return f"Hello, {name}!"',
            '',
          ].join('\n'),
        },
        readme,
      ];
    }
    case 'swarmkit':
      return [
        {
          path: `${name}.yaml`,
          content: [
            'apiVersion: swarmkit/v1',
            'kind: Skill',
            'metadata:',
            `  id: ${name}`,
            `  name: ${yamlText(title(name))}`,
            `  description: ${yamlText(description)}`,
            'category: capability',
            'implementation:',
            '  type: llm_prompt',
            '  prompt: "Greet the person named in the input, in one short sentence."',
            'provenance:',
            '  authored_by: human',
            '  version: 0.1.0',
            '',
          ].join('\n'),
        },
        readme,
      ];
    case 'agent-skill':
      return [
        {
          path: 'SKILL.md',
          content: [
            '---',
            `name: ${name}`,
            `description: ${yamlText(description)}`,
            'license: MIT',
            '---',
            '',
            `# ${title(name)}`,
            '',
            'When the user asks to be greeted, answer with one short, friendly sentence that uses their name.',
            '',
          ].join('\n'),
        },
      ];
  }
}
