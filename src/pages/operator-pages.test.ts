import { describe, expect, it } from 'vitest';
import { renderAutomationPage, type AutomationDetailView } from './operator-automation-page.js';
import { queueQuery, renderQueue } from './operator-queue-page.js';

const item: AutomationDetailView = {
  id: 'aut_1',
  taskTitle: 'Register with the EDD',
  entityName: 'Rose & <Thorn>',
  platformName: 'Acme',
  region: 'CA',
  agencyId: 'ca-edd',
  status: 'waiting_on_customer_response',
  dueDate: '2026-01-01',
  assignedTo: { keyId: 'opk_b', name: 'Linus' },
  legalEntityId: 'le_1',
  platformId: 'plt_1',
  requirementId: 'ca-edd-employer-registration',
  performer: 'operator',
  statusReason: null,
  customerMessage: 'Which county?',
  logs: [{ status: 'started', reason: null, actor: 'owner', at: '2026-11-24T01:00:00.000Z' }],
  input: { officer_ssn_last4: '••••', officer_name: 'Ada' },
  lastError: null,
  outputs: null,
};
const operator = { keyId: 'opk_a', name: 'Grace' };
const choices = { regions: [['CA', 'California (CA)']], agencies: [], statuses: [], platforms: [] } as const;

describe('back-office pages (pure render functions)', () => {
  it('the queue escapes what businesses typed, marks overdue items and keeps the filters in its paging link', () => {
    const html = renderQueue({
      operator,
      csrf: 'tok',
      items: [item],
      filters: { region: 'CA', assigned: 'me' },
      choices,
      nextCursor: 'abc',
      here: '?region=CA',
      today: '2026-11-24',
    });
    expect(html).toContain('Rose &amp; &lt;Thorn&gt;');
    expect(html).not.toContain('<Thorn>');
    expect(html).toContain('Due 2026-01-01 (overdue)');
    expect(html).toContain('Assigned to Linus');
    expect(html).toContain('href="/operator?region=CA&amp;assigned=me&amp;cursor=abc"');
    expect(html).toContain('name="_csrf" value="tok"');
    expect(html).toContain('<option value="CA" selected>');
    expect(queueQuery({ region: 'CA', agency: '' }, null)).toBe('?region=CA');
  });

  it('the automation page masks the input until revealed, and offers no action once the automation is over', () => {
    const base = {
      operator,
      csrf: 'tok',
      item,
      sheet: null,
      why: ['The business has employees in California'],
      revealed: null,
      operators: [['opk_b', 'Linus']] as const,
      open: true,
    };
    const open = renderAutomationPage(base);
    expect(open).toContain('••••');
    expect(open).toContain('Reveal sensitive fields');
    expect(open).toContain('Which county?');
    expect(open).toContain('The business has employees in California');
    expect(open).toContain('action="/operator/automations/aut_1/cancel"');
    const revealed = renderAutomationPage({ ...base, revealed: { officer_ssn_last4: '4821', officer_name: 'Ada' } });
    expect(revealed).toContain('4821');
    expect(revealed).not.toContain('Reveal sensitive fields</button>');
    const over = renderAutomationPage({ ...base, open: false, item: { ...item, status: 'canceled' } });
    expect(over).not.toContain('action="/operator/automations/aut_1/cancel"');
    expect(over).not.toContain('action="/operator/automations/aut_1/claim"');
  });
});
