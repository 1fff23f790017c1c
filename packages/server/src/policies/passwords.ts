import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as de from '@zxcvbn-ts/language-de';
import * as en from '@zxcvbn-ts/language-en';
import type { FieldError } from '@tankportal/shared/field-errors';

// OWASP/ASVS minimum for argon2id: 19 MiB memory, 2 iterations, parallelism 1.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// A valid hash of a random secret, so that unknown usernames cost as much as known ones.
const dummyHash = hashPassword(crypto.randomUUID());

/** Verifies against the stored hash, or burns the same time when there is no user. */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

/**
 * zxcvbn's score 3 ("safely unguessable": at least 10^8 guesses). Lower scores are what attackers
 * try first: breached-list and common passwords, dictionary words with a digit or year appended,
 * keyboard walks, and the username (docs/decisions/007-password-rules.md).
 */
const MIN_SCORE = 3;
/** The estimate's cost grows fast with the length; a longer password is judged by its start. */
const CHECKED_LENGTH = 64;
/** Words of this installation an attacker tries first. */
const SITE_WORDS = ['tankportal', 'tank portal', 'tankstelle', 'fuellstand', 'füllstand'];

const withPrefix = (prefix: string, lists: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(lists).map(([name, words]) => [`${prefix}-${name}`, words]));

let checker: ZxcvbnFactory | undefined;
/** Built on first use: ranking the dictionaries takes most of a second. */
function strengthChecker() {
  checker ??= new ZxcvbnFactory({
    maxLength: CHECKED_LENGTH,
    graphs: common.adjacencyGraphs,
    dictionary: {
      ...common.dictionary,
      ...withPrefix('en', en.dictionary),
      ...withPrefix('de', de.dictionary),
      site: SITE_WORDS,
    },
  });
  return checker;
}

export type PasswordWeakness = 'passwordHasUsername' | 'passwordGuessable';

/** Why a new password is refused, or undefined when it is strong enough. */
export function passwordWeakness(password: string, username: string): PasswordWeakness | undefined {
  const result = strengthChecker().check(password, [username]);
  if (result.score >= MIN_SCORE) return undefined;
  const hasUsername = result.sequence.some(
    (match) => match.pattern === 'dictionary' && match.dictionaryName === 'userInputs',
  );
  return hasUsername ? 'passwordHasUsername' : 'passwordGuessable';
}

/** The field error for a weak new password (`invalid` with the reason the form shows). */
export function weakPasswordErrors(password: string, username: string, path = 'password'): FieldError[] {
  const reason = passwordWeakness(password, username);
  return reason ? [{ path, code: 'invalid', args: { reason } }] : [];
}
