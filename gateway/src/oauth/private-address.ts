/**
 * Fetching a Client ID Metadata Document must not reach inside the network: a host that resolves to a loopback,
 * private, link-local or otherwise special address is refused before any request. (The library also drops a
 * connection made to such an address, which covers a name that resolves differently the second time.)
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const special = new BlockList();
for (const [prefix, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const)
  special.addSubnet(prefix, bits, "ipv4");
for (const [prefix, bits] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
] as const)
  special.addSubnet(prefix, bits, "ipv6");

function isSpecialAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4)
    return special.check(address.slice(7), "ipv4");
  return special.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** True when `hostname` is, or resolves to, any special address (or does not resolve at all). */
export async function refusePrivateAddress(hostname: string): Promise<boolean> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (isIP(bare)) return isSpecialAddress(bare);
  try {
    const addresses = await lookup(bare, { all: true, verbatim: true });
    return addresses.length === 0 || addresses.some(({ address }) => isSpecialAddress(address));
  } catch {
    return true;
  }
}
