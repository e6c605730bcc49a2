import { InvalidInputError } from '../lib/errors.js';
import type { PlatformsService } from '../modules/platforms/contract.js';
import { toOperatorEndpointView, type WebhookEndpointsService } from '../modules/webhooks/index.js';
import { print, UsageError } from './output.js';

type EndpointView = ReturnType<typeof toOperatorEndpointView>;

const describe = (e: EndpointView) =>
  `${e.id}  ${e.platform_id}  ${e.status.padEnd(8)} ${e.url}  ${e.event_types ? e.event_types.join(',') : '(every event type)'}` +
  (e.disabled_reason ? `  disabled: ${e.disabled_reason}` : '') +
  (e.consecutive_failures ? `  ${e.consecutive_failures} failed attempts in a row` : '');

/** `webhooks list|add|disable|enable|delete`: the same endpoints service (rules, destination guard) as the API. */
export async function webhooksCommand(
  endpoints: WebhookEndpointsService,
  platforms: PlatformsService,
  sub: string | undefined,
  args: string[],
  values: {
    platform?: string | undefined;
    'event-type'?: string[] | undefined;
    reason?: string | undefined;
    description?: string | undefined;
  },
  json: boolean,
) {
  const [first, second] = args;
  const operator = { operator: true } as const;
  try {
    if (sub === 'list') {
      const list = (await endpoints.listAll(values.platform)).map(toOperatorEndpointView);
      return print(json, list, list.length ? list.map(describe).join('\n') : 'no webhook endpoints');
    }
    if (sub === 'add') {
      if (!first || !second) throw new UsageError('webhooks add needs <platform_id> <url>');
      await platforms.listKeys(first); // 404s an unknown platform
      const { endpoint, secret } = await endpoints.create(first, {
        url: second,
        event_types: values['event-type'] ?? null,
        description: values.description ?? null,
      });
      const view = toOperatorEndpointView(endpoint);
      // The secret goes on a line of its own (`tail -n 1`); it is never shown again.
      return print(
        json,
        { ...view, secret },
        `Added webhook endpoint ${view.id} for ${view.platform_id}: ${view.url}\nSigning secret (shown once):\n${secret}`,
      );
    }
    if (!first || !['disable', 'enable', 'delete'].includes(sub ?? ''))
      throw new UsageError('Unknown webhooks command; see statehouse --help');
    if (sub === 'delete') {
      await endpoints.remove(operator, first);
      return print(json, { id: first, deleted: true }, `Deleted webhook endpoint ${first}; its pending deliveries will not be attempted`);
    }
    const status = sub === 'enable' ? 'enabled' : 'disabled';
    const updated = toOperatorEndpointView(
      await endpoints.update(operator, first, { status }, { disabledReason: values.reason?.trim() || 'disabled by an operator (CLI)' }),
    );
    return print(json, updated, `${status === 'enabled' ? 'Enabled' : 'Disabled'} ${describe(updated)}`);
  } catch (error) {
    // A rule rejected an input: say which in the CLI's words.
    if (error instanceof InvalidInputError) {
      const flag: Record<string, string> = { url: '<url>', event_types: '--event-type', description: '--description' };
      throw new Error(`${flag[String(error.path[0])] ?? String(error.path[0])}: ${error.reason}`);
    }
    throw error;
  }
}
