const GSM_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '\f^{}\\[~]|€';

/** How many SMS a text takes, as a phone divides it: GSM 7-bit (160, or 153 per part) or UCS-2 (70, or 67 per part). */
export function smsParts(text: string): number {
  let septets = 0;
  for (const character of text) {
    if (GSM_BASIC.includes(character)) septets += 1;
    else if (GSM_EXTENDED.includes(character)) septets += 2;
    else return parts(text.length, 70, 67);
  }
  return parts(septets, 160, 153);
}

function parts(length: number, single: number, perPart: number): number {
  return length <= single ? 1 : Math.ceil(length / perPart);
}
