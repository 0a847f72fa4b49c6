/** Which tools a caller sees (spec/gateway.md): scope, allowWrites, profile, transport. */
import type { Principal, ToolDescriptor, Transport } from "@bancada/contracts";

export function isListed(descriptor: ToolDescriptor, principal: Principal, transport: Transport): boolean {
  return mayCall(descriptor, principal, transport) && (principal.profile === "full" || descriptor.profile === "core");
}

/** The profile changes only what a client sees, not what it may do (seed 002). */
export function mayCall(descriptor: ToolDescriptor, principal: Principal, transport: Transport): boolean {
  return (
    principal.scopes.includes(descriptor.scope) &&
    (descriptor.annotations.readOnlyHint || principal.allowWrites) &&
    descriptor.transports.includes(transport)
  );
}
