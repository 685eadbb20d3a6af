/**
 * Strict IP literal parsing to bytes, so ranges can be checked by prefix. Only canonical
 * dotted-decimal IPv4 is accepted: a spelling such as `0177.0.0.1` or `127.1`, which
 * some resolvers read differently, is rejected rather than guessed at.
 */
export interface IpAddress {
  family: 4 | 6;
  /** 4 bytes for IPv4, 16 for IPv6. */
  bytes: Uint8Array;
}

const IPV4_PART = /^(?:0|[1-9]\d{0,2})$/;
const IPV6_GROUP = /^[0-9a-f]{1,4}$/i;

export function parseIp(text: string): IpAddress | null {
  const unbracketed = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const bytes = unbracketed.includes(':') ? parseIpv6(unbracketed) : parseIpv4(unbracketed);
  if (!bytes) return null;
  return { family: bytes.length === 4 ? 4 : 6, bytes };
}

export function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => IPV4_PART.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? Uint8Array.from(octets) : null;
}

export function parseIpv6(text: string): Uint8Array | null {
  // A zone id (`fe80::1%eth0`) names an interface, not part of the address.
  const address = text.split('%')[0];
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const compressed = halves.length === 2;
  const head = groupsOf(halves[0], !compressed);
  const tail = compressed ? groupsOf(halves[1], true) : [];
  if (!head || !tail) return null;
  const words = [...head, ...tail];
  const missing = 8 - words.length;
  if (compressed ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((word, i) => {
    bytes[2 * i] = word >> 8;
    bytes[2 * i + 1] = word & 0xff;
  });
  return bytes;
}

/** 16-bit words of one side of `::`; a dotted IPv4 ending the address counts as two words. */
function groupsOf(side: string, endsAddress: boolean): number[] | null {
  if (side === '') return [];
  const groups = side.split(':');
  const words: number[] = [];
  for (const [i, group] of groups.entries()) {
    if (endsAddress && i === groups.length - 1 && group.includes('.')) {
      const v4 = parseIpv4(group);
      if (!v4) return null;
      words.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    } else if (IPV6_GROUP.test(group)) {
      words.push(parseInt(group, 16));
    } else {
      return null;
    }
  }
  return words;
}

export function formatIpv4(bytes: Uint8Array): string {
  return Array.from(bytes).join('.');
}
