import type { JobDefinition } from '../../jobs/queue.js';
import { DELIVERY_WORKERS, type createDeliveryAttempts } from './delivery-attempts.js';
import { DELIVER_JOB, parseDeliverJobData } from './webhook-deliveries.types.js';

/** The delivery queue: attempts run side by side, each bounded by the attempt time limit. */
export function deliveryJobs(attempts: ReturnType<typeof createDeliveryAttempts>, attemptTimeoutMs: number): JobDefinition[] {
  return [
    {
      name: DELIVER_JOB,
      handler: async (data) => {
        const job = parseDeliverJobData(data);
        return job ? attempts.deliver(job) : 'malformed job';
      },
      concurrency: DELIVERY_WORKERS,
      // An attempt that outlives this was cut off by a crash: another worker makes it again (at least once).
      expireInSeconds: Math.ceil(attemptTimeoutMs / 1000) + 30,
      // A throw here is our database failing while recording, not the receiver: tried again by pg-boss.
      retryLimit: 5,
    },
  ];
}
