/**
 * The input checks of the accounts operations: text fields, login URLs and login secrets.
 * They throw `BadRequestError` with the field's name and never put a secret's value in a message.
 */
import { BadRequestError } from '../../lib/errors.js';
import type { LoginSecrets } from '../../crypto/vault.js';

const MAX_TEXT = 200;
export const MAX_SECRET_TEXT = 1000;

export function text(value: unknown, field: string, max = MAX_TEXT): string {
  if (typeof value !== 'string' || value.trim() === '') throw new BadRequestError(`${field} must be a non-empty string`);
  if (value.length > max) throw new BadRequestError(`${field} must be at most ${max} characters`);
  return value;
}

export function optionalText(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_TEXT)
    throw new BadRequestError(`${field} must be a string of at most ${MAX_TEXT} characters`);
  return value;
}

/** Checks the shape of a secret without ever putting a value in the error. */
export function validateSecrets(input: unknown): LoginSecrets {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new BadRequestError('secrets must be a JSON object with username and password');
  const o = input as Record<string, unknown>;
  const allowed = new Set(['username', 'password', 'security_answers', 'totp_seed']);
  const unknown = Object.keys(o).filter((k) => !allowed.has(k));
  if (unknown.length) throw new BadRequestError(`secrets has unknown fields: ${unknown.join(', ')} (allowed: ${[...allowed].join(', ')})`);
  const secrets: LoginSecrets = {
    username: text(o.username, 'secrets.username', MAX_SECRET_TEXT),
    password: text(o.password, 'secrets.password', MAX_SECRET_TEXT),
  };
  if (o.security_answers !== undefined) {
    if (!Array.isArray(o.security_answers) || o.security_answers.length > 20)
      throw new BadRequestError('secrets.security_answers must be a list of {question, answer}');
    secrets.security_answers = o.security_answers.map((item: unknown, i) => {
      const qa = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
      return {
        question: text(qa.question, `secrets.security_answers[${i}].question`, MAX_SECRET_TEXT),
        answer: text(qa.answer, `secrets.security_answers[${i}].answer`, MAX_SECRET_TEXT),
      };
    });
  }
  if (o.totp_seed !== undefined) secrets.totp_seed = text(o.totp_seed, 'secrets.totp_seed', MAX_SECRET_TEXT);
  return secrets;
}

export function httpUrl(value: unknown, field: string): string {
  const raw = text(value, field, 2000);
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw;
  } catch {
    /* below */
  }
  throw new BadRequestError(`${field} must be an absolute http(s) URL`);
}
