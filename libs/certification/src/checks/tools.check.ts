/** C13 tools: the hash of each declared tool's definition, pinned in the certificate and compared at run time. */
import { toolDefinitionHash } from '@skillhub/gate';
import { isSkip, parsedSkill, type Check } from '../check';

export const toolsCheck: Check = {
  id: 'C13',
  decides: [],
  appliesToManifestOnly: true,
  run(input) {
    const skill = parsedSkill(input);
    if (isSkip(skill)) return skill;
    const hashes = new Map<string, string>();
    for (const tool of skill.tools) {
      // Two definitions under one name would leave the runtime unable to tell which one is pinned.
      if (hashes.has(tool.name)) throw new Error(`tool ${JSON.stringify(tool.name)} is declared twice`);
      // The formats declare no input schema for their tools, so name and description are what is hashed.
      hashes.set(tool.name, toolDefinitionHash({ name: tool.name, description: tool.description }));
    }
    // fromEntries defines own properties, so a tool named `__proto__` is a key like any other.
    return { findings: [], evidence: { toolHashes: Object.fromEntries(hashes) } };
  },
};
