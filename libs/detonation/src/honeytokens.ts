/**
 * The bait a detonation plants where credential thieves look: SSH keys, cloud and GitHub tokens, a
 * `.netrc`, the working folder's `.env`, and tokens in the environment. Every value is a canary of
 * its own (random per detonation), so a value seen leaving (in a command line, a packet) names the
 * file or variable it came from. Pure apart from the random bytes.
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { SANDBOX_HOME } from '@skillhub/sandbox';

export interface HoneytokenFile {
  /** Where it lies inside the sandbox (absolute). */
  path: string;
  /** Relative to the folder it is planted from: home for the home files, the working folder for `.env`. */
  relative: string;
  /** The home folder's, or the working folder's. */
  under: 'home' | 'work';
  content: string;
}

export interface Honeytokens {
  files: HoneytokenFile[];
  /** Canary values for the environment, by variable. */
  env: Record<string, string>;
  /** Every canary value, with what holds it (`~/.aws/credentials`, `$GITHUB_TOKEN`). */
  canaries: { value: string; holder: string }[];
}

/** Variables credential thieves read from the environment. */
export const HONEYTOKEN_VARIABLES: readonly string[] = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'NPM_TOKEN',
  'HF_TOKEN',
];

const canary = (prefix: string, bytes = 18): string => `${prefix}${randomBytes(bytes).toString('hex')}`;

/** Fresh honeytokens; `workDir` is the sandbox's working folder, where the `.env` goes. */
export const plantHoneytokens = (workDir: string): Honeytokens => {
  const canaries: Honeytokens['canaries'] = [];
  const keep = (value: string, holder: string): string => {
    canaries.push({ value, holder });
    return value;
  };
  const home = (relative: string, content: string): HoneytokenFile => ({
    path: posix.join(SANDBOX_HOME, relative),
    relative,
    under: 'home',
    content,
  });
  const pem = (kind: string, holder: string): string =>
    `-----BEGIN ${kind} PRIVATE KEY-----\n${keep(canary('shc', 48), holder)}\n-----END ${kind} PRIVATE KEY-----\n`;
  const awsKey = keep(canary('AKIA', 8).toUpperCase(), '~/.aws/credentials');
  const files = [
    home('.ssh/id_rsa', pem('RSA', '~/.ssh/id_rsa')),
    home('.ssh/id_ed25519', pem('OPENSSH', '~/.ssh/id_ed25519')),
    home(
      '.aws/credentials',
      `[default]\naws_access_key_id = ${awsKey}\naws_secret_access_key = ${keep(canary('shc'), '~/.aws/credentials')}\n`,
    ),
    home('.netrc', `machine github.com\n  login deploy\n  password ${keep(canary('shc'), '~/.netrc')}\n`),
    home(
      '.config/gh/hosts.yml',
      `github.com:\n  oauth_token: ${keep(canary('gho_'), '~/.config/gh/hosts.yml')}\n  user: deploy\n  git_protocol: https\n`,
    ),
    {
      path: posix.join(workDir, '.env'),
      relative: '.env',
      under: 'work' as const,
      content: `DATABASE_URL=postgres://app:${keep(canary('shc'), '.env')}@db.internal/app\nSTRIPE_SECRET_KEY=${keep(canary('sk_live_'), '.env')}\n`,
    },
  ];
  const env = Object.fromEntries(HONEYTOKEN_VARIABLES.map((name) => [name, keep(canary('shc'), `$${name}`)]));
  return { files, env, canaries };
};

/** The holders of the canaries `text` contains (`$GITHUB_TOKEN`, `~/.netrc`). */
export const canariesIn = (text: string, honeytokens: Pick<Honeytokens, 'canaries'>): string[] => [
  ...new Set(honeytokens.canaries.filter(({ value }) => text.includes(value)).map(({ holder }) => holder)),
];
