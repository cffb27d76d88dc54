/** Who you are on a hub: login (a token checked, then stored per hub URL), whoami, logout; a namespace's Kazma secret. */
import type { Command } from 'commander';
import { HubApiError, type WhoamiResponse } from '@skillhub/hub-client';
import type { CliContext } from '../cli-context';
import { configPath, storeToken } from '../config';
import { CliError, EXIT } from '../exit-codes';
import { fields, lines, tty, type TerminalText } from '../format';

/** The fields `login` and `whoami` show. */
export function whoamiFields(hub: string, me: WhoamiResponse): TerminalText {
  const namespaces = me.namespaces.map((n) => (n.kazma_secret ? n.slug : `${n.slug} (no Kazma secret)`));
  return fields([
    ['hub', hub],
    ['publisher', me.kind === 'admin' ? '(the operator)' : (me.publisher ?? '-')],
    ['token', me.token_name ? tty`${me.token_name} (${me.token_id ?? '-'})` : '-'],
    ['scopes', me.scopes.join(', ')],
    ['namespaces', me.kind === 'admin' ? '(all)' : namespaces.join(', ') || '(none)'],
    ['expires', me.expires_at ?? 'never'],
  ]);
}

export function accountCommands(program: Command, ctx: CliContext): void {
  const { env, print, client, hubUrl, progress, readSecret } = ctx;

  program
    .command('login')
    .description(
      'check a publisher token against the hub (GET /api/v1/whoami) and store it for this hub URL in the config ' +
        'file (mode 0600); the token is read from stdin, piped or typed (never from the command line)',
    )
    .option('--token-stdin', 'read the token from stdin without prompting (for scripts)')
    .action(async (o: { tokenStdin?: boolean }, cmd: Command) => {
      const hub = hubUrl(cmd);
      const token = await readSecret('token', o.tokenStdin);
      progress.step(`checking the token with ${hub}`, { quiet: true });
      let me: WhoamiResponse;
      try {
        me = await client(cmd, true, token).whoami();
      } catch (err) {
        if (err instanceof HubApiError && err.status === 401) {
          throw new CliError(
            `${hub} does not accept this token: ${err.message}`,
            EXIT.refused,
            'Check it, or ask the operator for a new one.',
          );
        }
        throw err;
      }
      storeToken(env, hub, token);
      if (env.SKILLHUB_TOKEN)
        progress.done('warning: SKILLHUB_TOKEN is set, and wins over the stored token while it is');
      print(cmd, { hub, config: configPath(env), whoami: me }, () =>
        lines(tty`logged in to ${hub} (token stored in ${configPath(env)})`, whoamiFields(hub, me)),
      );
    });

  program
    .command('whoami')
    .description(
      'who the token in use is: publisher, token, scopes, namespaces (and which lack a Kazma secret), expiry',
    )
    .action(async (_o, cmd: Command) => {
      const me = await client(cmd, true).whoami();
      print(cmd, me, () => whoamiFields(hubUrl(cmd), me));
    });

  program
    .command('logout')
    .description('forget the token stored for this hub URL; with --revoke, revoke it on the hub first')
    .option('--revoke', 'also revoke the token on the hub (DELETE /api/v1/tokens/{id})')
    .action(async (o: { revoke?: boolean }, cmd: Command) => {
      const hub = hubUrl(cmd);
      let revoked: string | null = null;
      if (o.revoke) {
        const hubClient = client(cmd, true);
        const me = await hubClient.whoami();
        if (me.token_id === null) throw new CliError('the operator token cannot be revoked', EXIT.usage);
        revoked = (await hubClient.revokeToken(me.token_id)).id;
      }
      const stored = storeToken(env, hub, null);
      const remains = env.SKILLHUB_TOKEN ? 'SKILLHUB_TOKEN' : stored.token ? `the "token" of ${configPath(env)}` : null;
      if (remains) progress.done(`warning: ${remains} still holds a token, which the CLI keeps using`);
      print(cmd, { hub, revoked }, () =>
        revoked ? tty`logged out of ${hub} (token ${revoked} revoked)` : tty`logged out of ${hub}`,
      );
    });

  const secret = program
    .command('secret')
    .description("a namespace's Kazma secret, with which the hub verifies Kazma signatures (C4)");
  secret
    .command('set')
    .description(
      "register the namespace's Kazma secret (stored sealed, never returned): KAZMA_SECRET, else read from stdin",
    )
    .requiredOption('--namespace <slug>', 'the namespace')
    .option('--stdin', 'read the secret from stdin even when KAZMA_SECRET is set')
    .action(async (o: { namespace: string; stdin?: boolean }, cmd: Command) => {
      const value = !o.stdin && env.KAZMA_SECRET ? env.KAZMA_SECRET : await readSecret('Kazma secret', o.stdin);
      await client(cmd, true).setKazmaSecret(o.namespace, value);
      print(
        cmd,
        { namespace: o.namespace, kazma_secret: true },
        () => tty`registered the Kazma secret of ${o.namespace}: the hub now verifies its signatures with it`,
      );
    });
  secret
    .command('remove')
    .description("forget the namespace's Kazma secret (signed skills then fail C4.no-secret)")
    .requiredOption('--namespace <slug>', 'the namespace')
    .action(async (o: { namespace: string }, cmd: Command) => {
      await client(cmd, true).deleteKazmaSecret(o.namespace);
      print(
        cmd,
        { namespace: o.namespace, kazma_secret: false },
        () => tty`removed the Kazma secret of ${o.namespace}`,
      );
    });
}
