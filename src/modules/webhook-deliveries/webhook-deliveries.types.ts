/** Webhook deliveries: the names other files share (job names, statuses, what a job carries). */

export const DELIVER_JOB = 'webhooks.deliver';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One attempt of one delivery. `attempt`: the automatic attempt this job makes (1 for the first); a job whose
 * attempt has already been made (a duplicate, or a retry pg-boss runs again after a crash that came after the
 * attempt was recorded) does nothing. `manual`: a redelivery asked for through the API, made whatever the state.
 */
export type DeliverJobData = { deliveryId: string; attempt: number; manual?: false } | { deliveryId: string; manual: true };

export const parseDeliverJobData = (data: Record<string, unknown>): DeliverJobData | null => {
  if (typeof data.deliveryId !== 'string') return null;
  if (data.manual === true) return { deliveryId: data.deliveryId, manual: true };
  return typeof data.attempt === 'number' && Number.isInteger(data.attempt) && data.attempt >= 1
    ? { deliveryId: data.deliveryId, attempt: data.attempt }
    : null;
};
