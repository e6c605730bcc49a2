import { createHmac } from 'node:crypto';
import { hashSecret, safeEqual } from '../../lib/secrets.js';
import { HANDBOOK_ACK_PATH, HANDBOOK_FILE_PATH } from './contract.js';

export type PdfLinkCheck = 'ok' | 'forged' | 'expired';

/**
 * The handbook's two kinds of link, both keyed by the instance's file-link key (shared through the database,
 * sealed at rest): a version's PDF download, signed and expiring like mail's file links
 * (`…/files/handbook/{entity}/{version}.pdf?expires={unix s}&signature={HMAC}`), and each employee's
 * acknowledgement link of one version, whose token is an HMAC of the three ids — the same link can be shown
 * again, only its SHA-256 is stored, and it cannot be made for another employee, version or entity.
 */
export function createHandbookLinks(deps: { key: () => Promise<Buffer>; publicBaseUrl: string; ttlSeconds: number; now: () => Date }) {
  const pdfMessage = (legalEntityId: string, versionId: string, expires: number) =>
    `statehouse-handbook-pdf:v1\n${legalEntityId}\n${versionId}\n${expires}`;
  const ackMessage = (legalEntityId: string, employeeId: string, versionId: string) =>
    `statehouse-handbook-ack:v1\n${legalEntityId}\n${employeeId}\n${versionId}`;
  const mac = async (message: string) =>
    createHmac('sha256', await deps.key())
      .update(message)
      .digest('base64url');

  return {
    async pdfUrl(legalEntityId: string, versionId: string): Promise<string> {
      const expires = Math.floor(deps.now().getTime() / 1000) + deps.ttlSeconds;
      const signature = await mac(pdfMessage(legalEntityId, versionId, expires));
      return `${deps.publicBaseUrl}${HANDBOOK_FILE_PATH}${encodeURIComponent(legalEntityId)}/${encodeURIComponent(versionId)}.pdf?expires=${expires}&signature=${signature}`;
    },

    /** Expiry is judged only once the signature holds: an altered `expires` is a forgery. */
    async verifyPdf(legalEntityId: string, versionId: string, expiresRaw: unknown, signatureRaw: unknown): Promise<PdfLinkCheck> {
      if (typeof expiresRaw !== 'string' || !/^[1-9]\d{0,11}$/.test(expiresRaw)) return 'forged';
      if (typeof signatureRaw !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(signatureRaw)) return 'forged';
      const expires = Number(expiresRaw);
      const expected = await mac(pdfMessage(legalEntityId, versionId, expires));
      if (!safeEqual(Buffer.from(signatureRaw), Buffer.from(expected))) return 'forged';
      return deps.now().getTime() >= expires * 1000 ? 'expired' : 'ok';
    },

    /** The employee's link to acknowledge this version, and the hash the database keeps of its token. */
    async ackLink(legalEntityId: string, employeeId: string, versionId: string): Promise<{ url: string; tokenHash: Buffer }> {
      const token = await mac(ackMessage(legalEntityId, employeeId, versionId));
      return { url: `${deps.publicBaseUrl}${HANDBOOK_ACK_PATH}${token}`, tokenHash: hashSecret(token) };
    },
  };
}

export type HandbookLinks = ReturnType<typeof createHandbookLinks>;
