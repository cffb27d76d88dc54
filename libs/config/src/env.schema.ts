/** Every environment variable the apps read, with its default and its rule. Validated once, at start-up. */
import { z } from 'zod';

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
/** Kazma's own switches, read as Kazma reads them: only the exact value `1` opts in (`true`, ` 1` do not). */
const kazmaSwitch = z
  .string()
  .optional()
  .transform((v) => v === '1');

const positiveInt = z.coerce.number().int().positive();
/** `203.0.113.7:8443`, `[2001:db8::1]:443`. */
export const ADDRESS_PORT = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]):\d{1,5}$/;

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  /**
   * `json`: one JSON object per line, for log shippers (the default with NODE_ENV=production);
   * `text`: one readable line per entry (the default otherwise), coloured only on a terminal.
   */
  LOG_FORMAT: z.enum(['text', 'json']).optional(),

  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public base URL of the hub, used in links it prints. Defaults to http://HOST:PORT. */
  HUB_PUBLIC_URL: z.url().optional(),
  /** Honour X-Forwarded-For for client addresses (set behind a load balancer). */
  TRUST_PROXY: bool.default(false),

  /** PostgreSQL server. When unset, hub-api runs on an embedded PGlite under HUB_DATA_DIR. */
  DATABASE_URL: z.url().optional(),
  HUB_DATA_DIR: z.string().min(1).default('.skillhub-data'),
  /**
   * Free space the embedded database keeps under HUB_DATA_DIR: below it, writes get 503 until an
   * operator makes room (PGlite stops answering, rather than failing a write, once its disk is full).
   */
  HUB_DATA_DIR_RESERVE_MB: positiveInt.default(64),

  /**
   * The certification queue (BullMQ). Required with DATABASE_URL; the embedded default uses it
   * while it answers and certifies in its own process otherwise.
   */
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /**
   * Key prefix for every queue key, so several hubs (or test runs) can share one Redis: each
   * running hub needs its own, or one hub's workers would take the other's jobs.
   */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/)
    .default('skillhub'),

  /** Operator token (≥ 32 characters). When unset in embedded mode, one is generated into HUB_DATA_DIR. */
  HUB_ADMIN_TOKEN: z.string().min(32).optional(),

  /**
   * 32 bytes (64 hex characters) sealing secrets at rest with AES-256-GCM: namespaces'
   * Kazma HMAC secrets and the hub's signing keys. Generated into HUB_DATA_DIR by the
   * embedded default when unset; required with DATABASE_URL.
   */
  HUB_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
    .optional(),
  /** The hub's own Kazma HMAC secret: signatures made with it verify for every namespace (C4). */
  KAZMA_SECRET: z.string().min(16).optional(),
  /** Origin line of the transparency log's signed checkpoints. */
  HUB_LOG_ORIGIN: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/)
    .default('skillhub.local/log'),
  CERTIFICATE_LIFETIME_DAYS: positiveInt.default(365),
  /** Registries the certifier probes (C8); nothing else is ever contacted. */
  NPM_REGISTRY_URL: z.url().default('https://registry.npmjs.org'),
  PYPI_REGISTRY_URL: z.url().default('https://pypi.org'),
  /**
   * Where clients install the servers the MCP sub-registry lists (its `registryBaseUrl`): the public
   * registries, whatever mirror or test registry the certifier probes through.
   */
  PUBLIC_NPM_REGISTRY_URL: z.url().default('https://registry.npmjs.org'),
  PUBLIC_PYPI_REGISTRY_URL: z.url().default('https://pypi.org'),
  PROBE_TIMEOUT_MS: positiveInt.default(10_000),
  PROBE_MAX_ATTEMPTS: positiveInt.default(4),
  /**
   * C13: start each pinned MCP server in a bubblewrap sandbox (no network, read-only system) and
   * record its live tools. Off, or without bubblewrap, no server's tools are recorded, so no skill
   * with a server reaches standard.
   */
  LIVE_PROBE: bool.default(true),
  LIVE_PROBE_TIMEOUT_MS: positiveInt.default(15_000),
  /**
   * Remote (`https`) servers are listed through an egress proxy that reaches public addresses only;
   * these exact `address:port` destinations (comma-separated) are let through as well: a server on
   * the operator's own network, or a test's on loopback. Empty by default.
   */
  LIVE_PROBE_ALLOW_ADDRESSES: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((one) => one.trim())
        .filter((one) => one !== ''),
    )
    .pipe(z.array(z.string().regex(ADDRESS_PORT, 'address:port ([v6]:port)')).max(100)),
  /** A PEM file of CA certificates trusted for remote servers besides the system's (a private CA). */
  LIVE_PROBE_CA_FILE: z.string().min(1).optional(),
  /**
   * C16: run what each skill would run (its scripts, the shell blocks its instructions give, a Kazma
   * skill's tools) in the sandbox with honeytokens, under strace. Off, or without bubblewrap and
   * strace, skills are judged by the static checks alone (recorded as not detonated, never failed).
   */
  DETONATION: bool.default(true),
  /** Wall clock for all of one skill's programs; what is left when it is spent is listed as not run. */
  DETONATION_TIMEOUT_MS: positiveInt.default(20_000),
  /** Wall clock for one program. */
  DETONATION_PROGRAM_TIMEOUT_MS: positiveInt.default(5_000),
  /**
   * Skills detonated at once per process, whatever the worker's concurrency: the others wait their
   * turn, so a program's time limit is spent running, not waiting for a core.
   */
  DETONATION_CONCURRENCY: positiveInt.default(2),
  /** Content-addressed cache of the npm packages the live probe installs; default `<HUB_DATA_DIR>/package-cache`. */
  PACKAGE_CACHE_DIR: z.string().min(1).optional(),
  /** When a certification stays inconclusive (a registry did not answer), it is tried again after this long. */
  INCONCLUSIVE_RETRY_MS: positiveInt.default(3_600_000),

  BUNDLE_MAX_COMPRESSED_BYTES: positiveInt.default(5 * 1024 * 1024),
  BUNDLE_MAX_UNCOMPRESSED_BYTES: positiveInt.default(25 * 1024 * 1024),
  BUNDLE_MAX_ENTRIES: positiveInt.default(2000),
  BUNDLE_MAX_COMPRESSION_RATIO: positiveInt.default(100),
  /**
   * Worker threads that read bundles and parse manifests for publish, validate and submit, so
   * that no upload blocks hub-api's event loop. Default: one per core beyond the first (at least 1).
   */
  INSPECT_WORKERS: positiveInt.optional(),
  /** A bundle or manifest still being read after this long is refused (422) and its worker replaced. */
  INSPECT_TIMEOUT_MS: positiveInt.default(10_000),

  /** Unauthenticated Kazma submissions accepted per client address per hour. */
  SUBMIT_RATE_LIMIT_PER_HOUR: positiveInt.default(10),
  SUBMISSION_TTL_DAYS: positiveInt.default(30),
  /** Publishes accepted per token per minute. */
  PUBLISH_RATE_LIMIT_PER_MINUTE: positiveInt.default(60),
  /** Dry-run validations accepted per client address per minute. */
  VALIDATE_RATE_LIMIT_PER_MINUTE: positiveInt.default(60),

  /** The hub the agent-runtime installs from (Kazma's variable name). */
  KAZMA_HUB_URL: z.url().default('http://127.0.0.1:3000'),
  /** The agent-runtime's YAML file: skills to install, MCP servers, approvals, gateway listeners. */
  RUNTIME_CONFIG: z.string().min(1).optional(),
  /** `1`: servers the runtime config marks `trust: trusted` skip approval in production too. */
  KAZMA_MCP_TRUSTED_IN_PROD: kazmaSwitch,
  /** `1`: the operator's plain stdio servers get the runtime's whole environment, not only PATH, HOME and the like. */
  KAZMA_MCP_INHERIT_ENV: kazmaSwitch,

  OUTBOX_POLL_MS: positiveInt.default(1000),
  /** How often gathered download counts are written. */
  DOWNLOAD_FLUSH_MS: positiveInt.default(5000),
  CERTIFIER_CONCURRENCY: positiveInt.default(2),
  /** A job whose worker stops renewing its lock this long (killed, hung) goes to another worker. */
  CERTIFIER_LOCK_MS: positiveInt.default(30_000),
  /**
   * The queue's watchdog looks this often for a certification (or a Kazma submission) waiting for
   * a verdict with no job queued or running for it (lost with a Redis that keeps nothing on disk,
   * or failed for good) and queues it again; judging is idempotent, so a duplicate costs only
   * time. On the embedded default, Redis unreachable this long counts as having lost its jobs.
   */
  QUEUE_WATCHDOG_MS: positiveInt.default(30_000),
  /**
   * certifier-worker only: serve Prometheus metrics at `http://WORKER_METRICS_HOST:PORT/metrics`
   * (probe latency, verdicts, process). Off when unset; loopback unless the host is set.
   */
  WORKER_METRICS_PORT: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  WORKER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

export type HubConfig = z.infer<typeof envSchema>;
