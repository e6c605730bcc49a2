// What the handbook's services answer: the builder's state, the platform's summary, an employee's link.
import type { HandbookDocument } from '../../pages/handbook-document.js';
import type { AcknowledgementStats, Derivation, HandbookDraft } from './handbook.fns.js';

/** What is wrong with an input, by what it names (a region code, a question or policy id, `name`, `email`). */
export type Problems = Record<string, string>;

export type EmployeeStatus = 'signed' | 'outdated' | 'pending' | 'missing_email';

export interface BuilderEmployee {
  id: string;
  name: string;
  email: string | null;
  status: EmployeeStatus;
  /** Their link to acknowledge the latest version (none before the first publication). */
  ackUrl: string | null;
}

export interface PublishedVersion {
  id: string;
  number: number;
  publishedAt: Date;
  regions: string[];
}

export interface BuilderState {
  businessName: string;
  draft: HandbookDraft;
  derivation: Derivation;
  /** Employee counts by state code, for the first step. */
  counts: Record<string, number | null>;
  employees: BuilderEmployee[];
  latest: (PublishedVersion & { document: HandbookDocument }) | null;
  versions: PublishedVersion[];
  stats: AcknowledgementStats | null;
  /** The draft would publish exactly the latest version's content: its number (publishing again is refused). */
  unchangedSince: number | null;
}

export interface HandbookSummary {
  adoptable: number;
  publishable: boolean;
  hasPublished: boolean;
  stats: AcknowledgementStats | null;
}

export type AckView =
  | { state: 'unknown' | 'removed' }
  | {
      state: 'ok';
      employeeName: string;
      document: HandbookDocument;
      /** A newer version exists: this one can no longer be acknowledged. */
      superseded: boolean;
      acknowledgedAt: Date | null;
      typedName: string | null;
    };

/** An employee as the owner gives them: a trimmed name, an e-mail address or none. */
export interface EmployeeInput {
  name: string;
  email: string | null;
}

/** Why publishing is refused when nothing changed (the review page says it too). */
export const unchangedMessage = (version: number) =>
  `Nothing has changed since version ${version}: publishing it again would only ask every employee to acknowledge the same handbook again.`;

/** Longest employee name and typed signature. */
export const MAX_NAME = 200;
