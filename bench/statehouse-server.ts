/**
 * Benchmark child: Statehouse itself, exactly as `statehouse serve` builds it (startServer),
 * on the configuration from the environment, with the demo data seeded and an operator key
 * (named `bench`) for the operator API (the mail uploads of the f and g targets).
 * Prints `{"benchReady":true,"pid",...,"url","apiKey","platformId","legalEntityId","operatorKey","connectionString"}`.
 * With BENCH_CAPTURE_SQL=1 (the scale scenario) it also answers the commands `sql-capture-start` and
 * `sql-capture-stop` (the statements sent in between, bench/scale-plans.ts).
 */
import { loadConfig } from '../src/config.js';
import { createDemoModule } from '../src/modules/demo/index.js';
import { createOperatorsService } from '../src/modules/operators/operators.service.js';
import { startServer, type RunningServer } from '../src/server.js';
import { announceReady, log, onShutdown, registerCommand } from './child-lifecycle.js';
import { installQueryCapture, startCapture, stopCapture } from './scale-plans.js';

const NAME = 'statehouse';
const say = (message: string) => log(NAME, message);

let starting: Promise<RunningServer> | null = null;
const shutdown = onShutdown(NAME, async () => {
  // A signal during start-up still waits for the start, so its embedded PostgreSQL is stopped too.
  const server = await starting?.catch(() => null);
  await server?.close();
});

if (process.env.BENCH_CAPTURE_SQL === '1') {
  installQueryCapture();
  registerCommand('sql-capture-start', () => {
    startCapture();
    return {};
  });
  registerCommand('sql-capture-stop', () => ({ statements: stopCapture() }));
}

try {
  const config = loadConfig(process.env);
  starting = startServer(config, say);
  const server = await starting;
  const demo = await createDemoModule({ db: server.database.db, publicBaseUrl: config.publicBaseUrl }).seed();
  const operator = await createOperatorsService(server.database.db).createKey('bench');
  announceReady({
    url: server.url,
    apiKey: demo.apiKey,
    platformId: demo.platformId,
    legalEntityId: demo.legalEntityId,
    operatorKey: operator.key,
    connectionString: server.database.connectionString,
  });
} catch (error) {
  say(`start failed: ${(error as Error).stack ?? String(error)}`);
  shutdown('start failed', 1);
}
