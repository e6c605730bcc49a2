// The credentials form of the hosted pages that collect a login's secrets (the accounts page, the
// connect page): username, password, optional authenticator setup key, optional security question.
import { MAX_SECRET_TEXT } from './accounts.input.js';
import { decodeBase32 } from './totp.js';
import type { LoginSecrets } from '../../crypto/vault.js';

/** Authenticator seeds are at least 80 bits: 16 base32 characters. */
const MIN_SEED_CHARS = 16;

type CredentialsForm = { ok: true; secrets: LoginSecrets } | { ok: false; errors: Record<string, string> };

/**
 * Checks the credentials form field by field. Messages never contain what was typed; the seed is
 * stored normalised (upper case, no spaces) so that every reader decodes it the same way.
 */
export function parseCredentialsForm(form: Record<string, string>): CredentialsForm {
  const errors: Record<string, string> = {};
  const tooLong = `must be at most ${MAX_SECRET_TEXT} characters`;
  const required = (name: 'username' | 'password', empty: string) => {
    const value = form[name] ?? '';
    if (value.trim() === '') errors[name] = empty;
    else if (value.length > MAX_SECRET_TEXT) errors[name] = `The ${name} ${tooLong}`;
    return value;
  };
  const username = required('username', 'Enter the username');
  const password = required('password', 'Enter the password');
  const secrets: LoginSecrets = { username, password };

  const rawSeed = (form.totp_seed ?? '').trim();
  if (rawSeed !== '') {
    const seed = rawSeed.toUpperCase().replace(/[\s-]/g, '').replace(/=+$/, '');
    if (rawSeed.length > MAX_SECRET_TEXT) errors.totp_seed = `The setup key ${tooLong}`;
    else if (!/^[A-Z2-7]+$/.test(seed) || !isBase32(seed))
      errors.totp_seed = 'The setup key can only contain the letters A to Z and the digits 2 to 7';
    else if (seed.length < MIN_SEED_CHARS) errors.totp_seed = `The setup key must be at least ${MIN_SEED_CHARS} characters long`;
    else secrets.totp_seed = seed;
  }

  const question = (form.security_question ?? '').trim();
  const answer = form.security_answer ?? '';
  if (question.length > MAX_SECRET_TEXT) errors.security_question = `The question ${tooLong}`;
  if (answer.length > MAX_SECRET_TEXT) errors.security_answer = `The answer ${tooLong}`;
  if (question !== '' && answer.trim() === '' && !errors.security_answer)
    errors.security_answer = 'Enter the answer to the security question';
  if (question === '' && answer.trim() !== '' && !errors.security_question)
    errors.security_question = 'Enter the security question this answer belongs to';
  if (question !== '' && answer.trim() !== '') secrets.security_answers = [{ question, answer }];

  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, secrets };
}

function isBase32(seed: string): boolean {
  try {
    return decodeBase32(seed).length > 0;
  } catch {
    return false;
  }
}
