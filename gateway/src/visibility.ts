/**
 * Which tools a caller sees in tools/list: those `authorize` lets it call from this transport, narrowed by
 * the key's profile. The profile changes only what a client sees, not what it may do, so tools/call does not
 * check it.
 */
import { permits, type Principal, type ToolDescriptor, type Transport } from "@bancada/contracts";

export function isListed(descriptor: ToolDescriptor, principal: Principal, transport: Transport): boolean {
  return permits(descriptor, principal, transport) && (principal.profile === "full" || descriptor.profile === "core");
}
