import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { MailType } from '../db/schema.js';
import { InvalidInputError } from '../lib/errors.js';
import { MAIL_TYPES, type MailService } from '../modules/mail/contract.js';
import { print, UsageError } from './output.js';

/** `mail upload`, `mail list` and `mail gc`: the same mail service (file store, rules) as the operator API. */
export async function mailCommand(
  mail: MailService,
  maxBytes: number,
  sub: string | undefined,
  values: {
    entity?: string | undefined;
    file?: string | undefined;
    region?: string | undefined;
    type?: string | undefined;
    sender?: string | undefined;
    subject?: string | undefined;
    received?: string | undefined;
  },
  json: boolean,
) {
  if (sub === 'gc') {
    const result = await mail.collectGarbage();
    return print(
      json,
      result,
      `checked ${result.checked} stored files: removed ${result.removed} that no mail item refers to, and ${result.leftovers} interrupted writes`,
    );
  }
  if (!values.entity) throw new UsageError('mail commands need --entity <legal_entity_id>');
  const describe = (m: Awaited<ReturnType<typeof mail.list>>[number]) =>
    `${m.id}  ${m.receivedOn}  ${m.type.padEnd(16)} ${(m.region?.code ?? '--').padEnd(3)}${m.sender ?? '(no sender)'}  ${m.fileSize} bytes  sha256:${m.fileSha256}`;
  const toJson = (m: Awaited<ReturnType<typeof mail.list>>[number]) => ({
    id: m.id,
    legal_entity_id: m.legalEntityId,
    region: m.region?.code ?? null,
    type: m.type,
    received: m.receivedOn,
    sender: m.sender,
    subject: m.subject,
    file_name: m.fileName,
    file_sha256: m.fileSha256,
    file_size: m.fileSize,
    created_at: m.createdAt.toISOString(),
    file_url: m.fileUrl,
  });
  try {
    if (sub === 'upload') {
      if (!values.file) throw new UsageError('mail upload needs --file <path.pdf>');
      if (values.type !== undefined && !(MAIL_TYPES as readonly string[]).includes(values.type))
        throw new UsageError(`--type must be one of ${MAIL_TYPES.join(', ')}`);
      const info = await stat(values.file).catch(() => null);
      if (!info?.isFile()) throw new Error(`--file ${values.file}: no such file`);
      // The size is checked before reading, so a huge file is refused without loading it.
      if (info.size > maxBytes) throw new Error(`--file ${values.file} is ${info.size} bytes; the limit is ${maxBytes} (MAIL_MAX_BYTES)`);
      const item = await mail.ingest({
        legalEntityId: values.entity,
        regionCode: values.region ?? null,
        type: (values.type as MailType | undefined) ?? null,
        receivedOn: values.received ?? null,
        sender: values.sender ?? null,
        subject: values.subject ?? null,
        fileName: path.basename(values.file),
        bytes: await readFile(values.file),
      });
      print(json, toJson(item), `Recorded mail ${item.id} for ${item.legalEntityId}: ${describe(item)}`);
    } else if (sub === 'list') {
      const items = await mail.listForOperator(values.entity);
      print(json, items.map(toJson), items.length ? items.map(describe).join('\n') : 'no mail recorded');
    } else {
      throw new UsageError('Unknown mail command; see statehouse --help');
    }
  } catch (error) {
    // A rule rejected one input fact: say which in the CLI's words (the flag that gave it).
    if (error instanceof InvalidInputError) {
      const flag: Record<string, string> = {
        file: '--file',
        region: '--region',
        type: '--type',
        received: '--received',
        sender: '--sender',
        subject: '--subject',
        file_name: '--file',
      };
      const field = String(error.path[0]);
      throw new Error(`${flag[field] ?? field}: ${error.reason}`);
    }
    throw error;
  }
}
