import { csrfInput } from './components.js';
import { html, layout, type PageBrand } from './html.js';

export function renderPayrollConsent(data: { platformName: string; brand?: PageBrand | null; businessName: string; csrf: string }): string {
  return layout({
    title: 'Connect payroll',
    platformName: data.platformName,
    brand: data.brand,
    body: html`<h1>Connect payroll</h1>
<p>Allow ${data.platformName} to keep ${data.businessName}'s employee information in Statehouse up to date from payroll:
in which states you have employees, and how many.</p>
<p>Your compliance tasks then follow your payroll automatically. While payroll is connected, the employee settings of your locations are not changed by hand; the platform can disconnect payroll to give that control back.</p>
<form method="post" action="/hosted/payroll">
${csrfInput(data.csrf)}
<div class="actions"><button type="submit">Connect payroll</button></div>
</form>`,
  });
}

export function renderPayrollConnected(data: {
  platformName: string;
  brand?: PageBrand | null;
  businessName: string;
  callbackUrl: string | null;
}): string {
  return layout({
    title: 'Payroll connected',
    platformName: data.platformName,
    brand: data.brand,
    body: html`<h1>Payroll connected</h1><p>${data.platformName} keeps ${data.businessName}'s employee information up to date.</p>
${data.callbackUrl ? html`<p class="actions"><a class="button" href="${data.callbackUrl}">Return to ${data.platformName}</a></p>` : html`<p>You can close this window.</p>`}`,
  });
}
