import type { LegalEntityRow } from '../db/schema.js';
import { html, layout } from './html.js';

const ENTITY_TYPE_LABELS: Record<string, string> = {
  c_corp: 'C corporation', p_corp: 'Professional corporation', pllc: 'Professional LLC', llc: 'Limited liability company',
  llp: 'Limited liability partnership', lp: 'Limited partnership', gp: 'General partnership', unset: 'Not set',
};

export function renderSignupConfirmPage(data: { entity: LegalEntityRow; platformName: string; action: string }): string {
  const { entity } = data;
  const rows: [string, string | null][] = [
    ['Business name', entity.business_name],
    ['Email', entity.user_email],
    ['Entity type', entity.entity_type ? (ENTITY_TYPE_LABELS[entity.entity_type] ?? entity.entity_type) : null],
    ['Incorporated in', entity.incorporation_region],
    ['Incorporation date', entity.incorporation_date],
    ['EIN', entity.ein],
  ];
  return layout({
    title: 'Complete your signup',
    platformName: data.platformName,
    body: html`<h1>Complete your signup</h1>
<p>${data.platformName} uses Statehouse to keep ${entity.business_name} compliant in every state where it operates. Check your details and confirm.</p>
<dl class="summary">
${rows.filter(([, v]) => v).map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
</dl>
<form method="post" action="${data.action}">
<button type="submit">Confirm and complete signup</button>
</form>`,
  });
}

export function renderSignupDonePage(data: { entity: LegalEntityRow; platformName: string }): string {
  return layout({
    title: 'Signup complete',
    platformName: data.platformName,
    body: html`<h1>Signup complete</h1><p>${data.entity.business_name} is set up. You can close this window.</p>`,
  });
}

export function renderLinkExpiredPage(): string {
  return layout({
    title: 'Link expired',
    body: html`<h1>This link has expired</h1>
<p>Links to this page work once and for a limited time. Ask your platform for a new one.</p>`,
  });
}
