/**
 * The `statehouse` binary's entry (bin/statehouse.js runs its bundle, dist/bundle/statehouse.js).
 * It loads only what starting the embedded PostgreSQL needs, starts it for `serve`, and once PostgreSQL is
 * starting loads the commands (main.ts), whose imports take most of a start.
 */
import { startEmbeddedEarly } from './early-start.js';

await startEmbeddedEarly(process.argv.slice(2), (message) => process.stderr.write(`[statehouse] ${message}\n`));
await import('./main.js');
