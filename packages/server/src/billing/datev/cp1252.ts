/**
 * Windows-1252, the character set DATEV reads a file in unless it starts with a byte-order mark.
 * Node decodes it (TextDecoder 'windows-1252') but has no encoder, and no encoding library is a
 * dependency here: the table is small. 0x00–0x7F and 0xA0–0xFF are Latin-1; 0x80–0x9F hold the
 * euro sign, typographic quotes and dashes and a few letters.
 */
const HIGH: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

function byteOf(character: string): number | undefined {
  const code = character.codePointAt(0)!;
  if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
  return HIGH[character];
}

/**
 * The text in Windows-1252. A letter the set lacks loses its accents where that leaves a letter
 * it has (Polish ł stays ?, Czech č becomes c); anything else becomes `?`, as DATEV would show it.
 */
export function encodeCp1252(text: string): Buffer {
  const bytes: number[] = [];
  for (const character of text) {
    let byte = byteOf(character);
    if (byte === undefined) {
      const bare = character.normalize('NFKD').replace(/\p{M}/gu, '');
      byte = bare.length === 1 ? byteOf(bare) : undefined;
    }
    bytes.push(byte ?? 0x3f);
  }
  return Buffer.from(bytes);
}
