/** Publisher tokens: create (the secret shown once), list, revoke. */
import type { Command } from 'commander';
import type { TokenScope } from '@skillhub/hub-client';
import { csv, type CliContext } from '../cli-context';
import { fields, table, tty } from '../format';

export function tokensCommands(program: Command, ctx: CliContext): void {
  const { print, client } = ctx;

  const tokens = program.command('tokens').description('publisher tokens');
  tokens
    .command('create')
    .description('create a token; its secret is shown once')
    .option('--namespace <slug>', 'bind it to this namespace')
    .option('--publisher <name>', 'operator only')
    .option('--scopes <list>', 'publish,claim,manage,tokens', 'publish')
    .option('--name <name>', 'a label')
    .option('--expires-in-days <n>', '1-365')
    .action(async (o, cmd: Command) => {
      const created = await client(cmd, true).createToken({
        namespace: o.namespace,
        publisher: o.publisher,
        scopes: csv(o.scopes) as TokenScope[],
        name: o.name,
        expires_in_days: o.expiresInDays ? Number(o.expiresInDays) : undefined,
      });
      // The new secret is the command's answer (shown once); the caller's own token is never printed.
      print(cmd, created, () =>
        fields([
          ['id', created.id],
          ['scopes', created.scopes.join(',')],
          ['namespace', created.namespace ?? '-'],
          ['expires', created.expires_at ?? 'never'],
          ['token', tty`${created.token}   (shown once: store it now)`],
        ]),
      );
    });
  tokens
    .command('list')
    .description('your tokens (never their secrets)')
    .action(async (_o, cmd: Command) => {
      const list = await client(cmd, true).listTokens();
      print(cmd, list, () =>
        table(
          ['ID', 'NAME', 'PREFIX', 'SCOPES', 'NAMESPACE', 'EXPIRES', 'REVOKED'],
          list.map((t) => [
            t.id,
            t.name,
            t.prefix,
            t.scopes.join(','),
            t.namespace ?? '-',
            t.expires_at ?? '-',
            t.revoked_at ?? '-',
          ]),
        ),
      );
    });
  tokens
    .command('revoke <id>')
    .description('revoke a token')
    .action(async (id: string, _o, cmd: Command) => {
      const t = await client(cmd, true).revokeToken(id);
      print(cmd, t, () => tty`revoked ${t.id}`);
    });
}
