import { csrfInput } from './components.js';
import { html, type Raw } from './html.js';

/** The entity's calendar subscription as the task list offers it: its URL while one is live. */
export interface CalendarOffer {
  url: string | null;
}

/** Calendar apps open webcal:// links as a subscription (the same URL, fetched over http or https). */
const webcalOf = (url: string) => url.replace(/^https?:\/\//, 'webcal://');

/** "Subscribe in your calendar" on the hosted task list: get a link, or see it, open it, and stop sharing it. */
export function calendarSection(offer: CalendarOffer, csrf: string): Raw {
  const body = offer.url
    ? html`<p>Your due dates are in this calendar link, and it updates itself as your tasks change. Anyone who has the link can see the titles and due dates of your tasks: stop sharing it if it gets out.</p>
<div class="field"><label for="calendar-url">Calendar link</label>
<p class="hint" id="calendar-url-hint">Google Calendar: Other calendars, then From URL. Outlook: Add calendar, then Subscribe from web. Apple Calendar: the button below.</p>
<input id="calendar-url" type="text" readonly value="${offer.url}" aria-describedby="calendar-url-hint"></div>
<p class="actions"><a class="button" href="${webcalOf(offer.url)}">Open in your calendar app</a></p>
<form method="post" action="/hosted/calendar/stop" class="inline-form">${csrfInput(csrf)}<button type="submit" class="secondary">Stop sharing</button></form>`
    : html`<p>Get a private link to a calendar of your due dates for Google Calendar, Outlook or Apple Calendar. It updates itself as your tasks change.</p>
<form method="post" action="/hosted/calendar" class="inline-form">${csrfInput(csrf)}<button type="submit">Get a calendar link</button></form>`;
  return html`<section class="calendar" id="calendar" aria-labelledby="calendar-title">
<h2 id="calendar-title">Subscribe in your calendar</h2>
${body}
</section>`;
}
