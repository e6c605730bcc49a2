/**
 * Under `npm start` (or `npm run dev`) npm is Statehouse's parent and forwards SIGTERM/SIGINT to it.
 * If npm dies without forwarding anything (SIGKILL, a closed terminal), Statehouse would keep running
 * unseen with its database: it notices it was re-parented and shuts down as on SIGTERM.
 * Only under those npm scripts: a server started any other way may outlive its parent on purpose.
 */
export function stopWhenNpmParentDies(log: (message: string) => void): void {
  const script = process.env.npm_lifecycle_event;
  if (script !== 'start' && script !== 'dev') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    log(`the parent process (npm ${script}, pid ${parent}) is gone: shutting down`);
    process.kill(process.pid, 'SIGTERM');
  }, 1000);
  timer.unref();
}
