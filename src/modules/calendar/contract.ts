// What other modules may use of the calendar feed: the subscription service of the hosted task list, and when to offer it.
import type { HostedScope } from '../../db/schema.js';
import type { AccessScope } from '../../http/principals.js';

/** Path of every feed URL; the token segment after it is redacted from logs (see app.ts). */
export const CALENDAR_FEED_PATH = '/calendar/';

/**
 * The feed holds every dated task of the entity, so only a task list that may show all of them offers it: not one
 * limited by the platform to a location or to question tasks (a status filter narrows the view, not the entity).
 */
export const offersCalendar = (scope: HostedScope) => !scope.region_id && scope.task_type !== 'question' && !scope.task_id;

export interface CalendarSubscription {
  url: string;
  created_at: string;
}

/** An entity's calendar subscription and the feed behind it (implemented by createCalendarService). */
export interface CalendarService {
  /** The live URL, or null when there is none. */
  current(scope: AccessScope): Promise<CalendarSubscription | null>;
  /** The live URL, or a new one when there is none (`created`). Two requests at once get the same URL. */
  subscribe(scope: AccessScope): Promise<CalendarSubscription & { created: boolean }>;
  /** Revokes the live URL (it answers 404 from now on); false when there was none. */
  revoke(scope: AccessScope): Promise<boolean>;
  /** The iCalendar text behind a token, or null for an unknown or revoked one. */
  feed(token: string): Promise<string | null>;
}

/** What the hosted task list offers: get, create and revoke the subscription. */
export type CalendarSubscriptions = Pick<CalendarService, 'current' | 'subscribe' | 'revoke'>;
