#!/usr/bin/env node
/**
 * Operator commands for a running hub: `npm run hub-api:tokens -- create --namespace acme-labs`.
 * They go through the hub's HTTP API with the operator token, so they work the same
 * on the embedded database (which one process owns) and on PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';

interface Globals {
  hubUrl: string;
  dataDir: string;
}

const program = new Command('hub-api')
  .description('Operator commands for a running Skill Hub')
  .option('--hub-url <url>', 'the hub', process.env.KAZMA_HUB_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`)
  .option(
    '--data-dir <dir>',
    'embedded data folder holding the development admin token',
    process.env.HUB_DATA_DIR ?? '.skillhub-data',
  );

function adminToken({ dataDir }: Globals): string {
  if (process.env.HUB_ADMIN_TOKEN) return process.env.HUB_ADMIN_TOKEN;
  try {
    return readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  } catch {
    throw new Error(
      `no operator token: set HUB_ADMIN_TOKEN or run the embedded hub once (it writes ${join(dataDir, 'admin-token')})`,
    );
  }
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const globals = program.opts<Globals>();
  const res = await fetch(new URL(path, globals.hubUrl), {
    method,
    headers: { authorization: `Bearer ${adminToken(globals)}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await res.json().catch(() => ({}))) as {
    detail?: string;
    errors?: Array<{ path: string; message: string }>;
  };
  if (!res.ok) {
    const details = (payload.errors ?? []).map((e) => `\n  ${e.path}: ${e.message}`).join('');
    throw new Error(`${res.status}: ${payload.detail ?? res.statusText}${details}`);
  }
  return payload;
}

const positiveInt = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a whole number of days ≥ 1');
  return n;
};

const tokens = program.command('tokens').description('Publisher tokens');
tokens
  .command('create')
  .description('Create a publisher token; the secret is printed once')
  .option('--namespace <slug>', 'namespace the token may act on (claimed for a new publisher if unknown)')
  .option('--publisher <name>', 'publisher the token belongs to')
  .option('--scopes <list>', 'comma list of publish, claim, manage, tokens', 'publish')
  .option('--name <label>', 'a label to tell tokens apart')
  .option('--days <n>', 'lifetime in days', positiveInt, 90)
  .action(async (o: { namespace?: string; publisher?: string; scopes: string; name?: string; days: number }) => {
    const created = (await call('POST', '/api/v1/tokens', {
      namespace: o.namespace,
      publisher: o.publisher,
      scopes: o.scopes
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      name: o.name,
      expires_in_days: o.days,
    })) as { token: string; id: string; expires_at: string };
    process.stdout.write(`${created.token}\n`);
    process.stderr.write(
      `token ${created.id} created; it expires ${created.expires_at}. This is the only time it is shown.\n`,
    );
  });
tokens
  .command('list')
  .description('List tokens (never their secrets)')
  .action(async () => {
    process.stdout.write(`${JSON.stringify(await call('GET', '/api/v1/tokens'), null, 2)}\n`);
  });
tokens
  .command('revoke <id>')
  .description('Revoke a token')
  .action(async (id: string) => {
    await call('DELETE', `/api/v1/tokens/${encodeURIComponent(id)}`);
    process.stderr.write(`token ${id} revoked\n`);
  });

program.parseAsync().catch((err: Error) => {
  process.stderr.write(`error: ${err.message}\n`);
  process.exit(1);
});
