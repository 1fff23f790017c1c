import { hash, verify } from '@node-rs/argon2';
import { createRequire } from 'node:module';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
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

// The dictionaries are loaded on first use, not at import: they take seconds to load on a busy
// machine, and most processes (and test files) never judge a new password.
const load = createRequire(import.meta.url);

let checker: ZxcvbnFactory | undefined;
/** Built on first use: ranking the dictionaries takes most of a second. */
function strengthChecker() {
  if (checker) return checker;
  const common = load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  const de = load('@zxcvbn-ts/language-de') as typeof import('@zxcvbn-ts/language-de');
  const en = load('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
  checker = new ZxcvbnFactory({
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

/** The username and its parts (`heizung-meier`: also `heizung`, `meier`). */
function usernameWords(username: string): string[] {
  const parts = username.split(/[^\p{L}\p{N}]+/u).filter((part) => part.length >= 3);
  return [...new Set([username, ...parts])];
}

const UNLEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};
/** Lower-case letters only, common digit-for-letter swaps undone: `H31zung-M31er 2026!` → `heizungmeier`. */
const letters = (text: string) =>
  [...text.toLowerCase()]
    .map((char) => UNLEET[char] ?? char)
    .join('')
    .replace(/[^\p{L}]/gu, '');

/**
 * The username in disguise: once the username's parts are taken out of the password's letters (in
 * any order, either direction), hardly anything is left. zxcvbn alone let `master-alice-1` through
 * for `alice-master`.
 */
function isUsernameVariant(password: string, username: string): boolean {
  const parts = usernameWords(username)
    .map(letters)
    .filter((part) => part.length >= 3)
    .sort((a, b) => b.length - a.length);
  if (parts.length === 0) return false;
  const forwards = letters(password);
  return [forwards, [...forwards].reverse().join('')].some((candidate) => {
    const rest = parts.reduce((remaining, part) => remaining.replaceAll(part, ''), candidate);
    return rest.length < 3 && rest.length < candidate.length;
  });
}

/** Why a new password is refused, or undefined when it is strong enough. */
export function passwordWeakness(password: string, username: string): PasswordWeakness | undefined {
  if (isUsernameVariant(password, username)) return 'passwordHasUsername';
  const result = strengthChecker().check(password, usernameWords(username));
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
