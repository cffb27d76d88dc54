/**
 * The embedded database's own process (`startEmbeddedDatabaseProcess`): opens the data folder
 * given as its argument, says its URL to its parent, and stops when the parent says `stop` or
 * goes away. The terminal's Ctrl-C reaches the whole process group: the parent decides when
 * its database stops, after its own shutdown.
 */
import { type EmbeddedProcessMessage, startEmbeddedDatabase } from './embedded-database';

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);

const say = (message: EmbeddedProcessMessage) => process.send!(message);

startEmbeddedDatabase(process.argv[2]!).then(
  (db) => {
    let stopped: Promise<void> | null = null;
    const stop = () =>
      (stopped ??= db.stop().then(
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
