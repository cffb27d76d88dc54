/**
 * The embedded database's own process (`startEmbeddedDatabaseProcess`): opens the data folder
 * given as its first argument on the port of its second (0: any), says its URL to its parent, and
 * stops when the parent says `stop` or goes away; a stop that does not end within 10 s ends the
 * process anyway (PGlite's close can wait on a full disk). The terminal's Ctrl-C reaches the whole
 * process group: the parent decides when its database stops, after its own shutdown. When PGlite
 * breaks (it throws rather than answering), the process ends at once, for its parent to start it
 * again from its files.
 */
import { type EmbeddedProcessMessage, startEmbeddedDatabase } from './embedded-database';

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);

const say = (message: EmbeddedProcessMessage) => process.send!(message);

const STOP_WITHIN_MS = 10_000;
/** EX_SOFTWARE: the database broke. */
const BROKEN = 70;

startEmbeddedDatabase(process.argv[2]!, {
  port: Number(process.argv[3] ?? 0),
  onBroken: (err) => {
    console.error(`the embedded database broke (${err.message}); it is started again from its files`);
    process.exit(BROKEN);
  },
}).then(
  (db) => {
    let stopped: Promise<void> | null = null;
    const stop = () =>
      (stopped ??= Promise.race([
        db.stop(),
        new Promise<never>((_, fail) =>
          setTimeout(() => fail(new Error(`it took over ${STOP_WITHIN_MS} ms`)), STOP_WITHIN_MS).unref(),
        ),
      ]).then(
        () => process.exit(0),
        (err: Error) => {
          console.error(`the embedded database did not stop cleanly: ${err.message}`);
          process.exit(1);
        },
      ));
    process.on('message', (m) => m === 'stop' && void stop());
    process.on('disconnect', () => void stop());
    say({ url: db.url, dataDir: db.dataDir });
  },
  (err: Error) => {
    say({ error: err.message });
    process.exit(1);
  },
);
