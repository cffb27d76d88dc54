/**
 * Reads one SwarmKit `command_packs[]` entry of a workspace file into the commands it can run, as
 * SwarmKit's runtime reads it: each command an argv run without a shell, under the pack's env and
 * cwd. SwarmKit refuses `{credential.*}` in argv (a secret there would be model-placeable and shown
 * by `ps`); so does the hub.
 */
import type { FieldPath } from './manifest-source';
import type { FieldReader, StringRule } from './field.reader';
import { ARG_MAX, ENV_NAME, ENV_VALUE, PATH_MAX } from './mcp-server.reader';
import type { CommandRef } from './skill.model';

/** Every command of the pack at `path`; entries that break a rule are reported and left out. */
export function readCommandPack(reader: FieldReader, path: FieldPath, id: string, idRule: StringRule): CommandRef[] {
  if (!reader.map(path, { required: true })) return [];
  const env = reader.stringMap([...path, 'env'], { key: ENV_NAME, value: ENV_VALUE });
  const cwd = reader.string([...path, 'cwd'], { max: PATH_MAX });
  const commands = reader.list([...path, 'commands'], { required: true, nonEmpty: true }) ?? [];
  return commands.flatMap((_, index): CommandRef[] => {
    const at = [...path, 'commands', index];
    if (!reader.map(at, { required: true })) return [];
    const name = reader.string([...at, 'id'], { ...idRule, required: true });
    const argv = readArgv(reader, [...at, 'argv']);
    return name === null || argv === null ? [] : [{ pack: id, name, argv, env, cwd, declaredIn: reader.file }];
  });
}

function readArgv(reader: FieldReader, path: FieldPath): string[] | null {
  const declared = reader.list(path, { required: true, nonEmpty: true });
  if (!declared) return null;
  const argv = reader.stringList(path, { max: ARG_MAX, min: 0 });
  if (argv.length !== declared.length) return null;
  const credential = argv.findIndex((arg) => arg.includes('{credential.'));
  if (credential !== -1) {
    reader.error(
      [...path, credential],
      'A credential may not be put into argv (SwarmKit refuses it: there it would be readable from ps); pass it in the pack env',
    );
    return null;
  }
  return argv;
}
