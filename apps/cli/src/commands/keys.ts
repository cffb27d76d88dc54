/** The publisher's Ed25519 keys (C14): generate locally, register with a namespace, list, remove. */
import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { fields, lines, table, tty } from '../format';
import { generateKeyFiles, keysDir, readPublicKey } from '../key-files';

export function keysCommands(program: Command, ctx: CliContext): void {
  const { env, paint, print, client } = ctx;

  const keys = program.command('keys').description('your Ed25519 publisher keys (C14)');
  keys
    .command('generate')
    .description('create a key pair: <name>.key (0600, never leaves your machine) and <name>.pub')
    .option('--name <name>', 'file name of the pair', 'default')
    .option('--dir <path>', 'where to write it (default: ~/.config/skillhub/keys)')
    .action((o: { name: string; dir?: string }, cmd: Command) => {
      const key = generateKeyFiles(o.dir ?? keysDir(env), o.name);
      print(cmd, { key_id: key.keyId, private_key: key.privateKey, public_key: key.publicKey }, () =>
        lines(
          fields([
            ['key', key.keyId],
            ['private key', `${key.privateKey} (keep it secret)`],
            ['public key', key.publicKey],
          ]),
          '',
          tty`next: skillhub keys register --namespace <slug> ${key.publicKey}`,
          tty`then: skillhub sign <dir> --key ${key.privateKey}`,
        ),
      );
    });
  keys
    .command('register <publicKey>')
    .description('register a .pub with a namespace: from then on the hub certifies only versions signed by its keys')
    .requiredOption('--namespace <slug>', 'the namespace')
    .option('--name <label>', 'a label (who or what holds the private key)')
    .action(async (file: string, o: { namespace: string; name?: string }, cmd: Command) => {
      const { pem } = readPublicKey(file);
      const key = await client(cmd, true).registerPublisherKey(o.namespace, pem, o.name);
      print(cmd, key, () => tty`registered ${key.key_id} with ${o.namespace}: its versions must now be signed`);
    });
  keys
    .command('list')
    .description("a namespace's publisher keys")
    .requiredOption('--namespace <slug>', 'the namespace')
    .action(async (o: { namespace: string }, cmd: Command) => {
      const listed = await client(cmd).publisherKeys(o.namespace);
      print(cmd, listed, () =>
        lines(
          tty`signatures required: ${listed.signatures_required ? paint.green('yes') : 'no'}`,
          table(
            ['KEY', 'NAME', 'REGISTERED', 'REMOVED'],
            listed.keys.map((k) => [
              k.key_id,
              k.name || '-',
              k.created_at,
              k.removed_at ? paint.red(k.removed_at) : '-',
            ]),
          ),
        ),
      );
    });
  keys
    .command('remove <keyId>')
    .description('remove a lost or retired key: signatures by it stop verifying')
    .requiredOption('--namespace <slug>', 'the namespace')
    .action(async (id: string, o: { namespace: string }, cmd: Command) => {
      const key = await client(cmd, true).removePublisherKey(o.namespace, id);
      print(cmd, key, () => tty`removed ${key.key_id} from ${o.namespace}`);
    });
}
