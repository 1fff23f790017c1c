/** Letters and digits that are not mistaken for each other when read out or typed (no 0/O, 1/l/I). */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LENGTH = 16;

/**
 * A password the web proposes for a new user (a generated password is used on
 * create): 16 characters from the browser's cryptographic random source, about 92 bits.
 */
export function generatePassword(
  randomBytes: (count: number) => ArrayLike<number> = (count) =>
    crypto.getRandomValues(new Uint8Array(count)),
) {
  const chars: string[] = [];
  // Bytes beyond the largest multiple of the alphabet's size are skipped: every character equally likely.
  const limit = 256 - (256 % ALPHABET.length);
  while (chars.length < LENGTH) {
    for (const byte of Array.from(randomBytes(LENGTH))) {
      if (byte < limit && chars.length < LENGTH) chars.push(ALPHABET[byte % ALPHABET.length]);
    }
  }
  return chars.join('');
}
