/** Letters the Unicode decomposition does not reduce to Latin ones, and typographic signs with a plain equivalent. */
const SPECIAL: Record<string, string> = {
  œ: 'oe', Œ: 'OE', æ: 'ae', Æ: 'AE', ß: 'ss', ẞ: 'SS', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ð: 'd', Ð: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH', ı: 'i', '°': 'o',
  '&': '+', '’': "'", '‘': "'", 'ʼ': "'", '`': "'", '´': "'", '"': "'", '“': "'", '”': "'", '«': "'", '»': "'", '–': '-', '—': '-', '_': '-', '\u00a0': ' ', '\u202f': ' ',
};

/**
 * A text in basic Latin where it can be: accents removed (é→e, ç→c), ligatures spelled out (œ→oe, ß→ss), typographic
 * quotes and dashes made plain. Characters with no Latin form are left as they are (the caller filters them).
 */
export function toBasicLatin(value: string): string {
  return [...value.normalize('NFKD').replace(/\p{M}/gu, '')].map((char) => SPECIAL[char] ?? char).join('');
}
