// The command's list of services (cli/src/services.ts) is the registry every other reader uses
// (@bancada/service-registry: the NATS permissions, the Kubernetes checks): same services, same order, same port and
// REST prefixes; and the registry refuses a declaration that would break a deployment, naming its file.
import { describe, expect, it } from "vitest";
import { gatewayScopes } from "@bancada/gateway";
import { parseDeclaration, registeredScopes, registeredServices } from "@bancada/service-registry";
import { services } from "../src/services.js";

/** What a key may hold: what the registry reads from the services' package.json, and the gateway's own. */
const scopes = [...registeredScopes(), ...gatewayScopes];

describe("the service registry", () => {
  it("is the list the command starts: names, order, ports and REST prefixes", () => {
    const registry = registeredServices();
    expect(services.map((service) => service.name)).toEqual(registry.map((service) => service.name));
    for (const service of services) {
      const registered = registry.find((entry) => entry.name === service.name);
      expect(registered, service.name).toBeDefined();
      expect({ name: service.name, port: service.port, paths: [...service.paths] }).toEqual({
        name: registered?.name,
        port: registered?.port,
        paths: registered?.paths,
      });
    }
  });

  it("owns every scope but the gateway's own: each declared by exactly one service, none left undeclared", () => {
    // audit and the caller's own keys are the gateway's (docs/gateway.md#scopes)
    const gatewayOwn = ["audit:read", "keys:read", "keys:write"];
    const declared = services.flatMap((service) => service.scopes.map((scope) => ({ scope, service: service.name })));
    const twice = declared.filter((entry, index) => declared.findIndex((other) => other.scope === entry.scope) !== index);
    expect(twice).toEqual([]);
    expect([...declared.map((entry) => entry.scope), ...gatewayOwn].sort()).toEqual([...scopes].sort());
    for (const { scope, service } of declared)
      expect(scope.split(":")[0], `${service} declares ${scope}`).toMatch(
        service === "boxes" ? /^(boxes|images)$/ : new RegExp(`^${service}$`),
      );
  });

  it("keeps each service's Postgres schema under its own name", () => {
    for (const service of services) expect(service.prisma.schema, service.name).toBe(service.name);
  });

  it("refuses a declaration a deployment could not use, naming the file and the field", () => {
    const declare =
      (bancada: unknown, name = "notes") =>
      () =>
        parseDeclaration(name, { name: `@bancada/${name}`, bancada }, "services/notes/package.json");
    expect(declare({ port: 8793, paths: ["/v1/notes"] })()).toEqual({
      name: "notes",
      port: 8793,
      paths: ["/v1/notes"],
      bus: { publishes: [], nodeRouted: false },
    });
    expect(declare({ port: 1023, paths: ["/v1/notes"] })).toThrow(
      'services/notes/package.json: "bancada".port must be an integer from 1024 to 65535',
    );
    expect(declare({ port: 65_536, paths: ["/v1/notes"] })).toThrow("port must be an integer from 1024 to 65535");
    expect(declare({ port: 65_535, paths: ["/v1/notes"] })()).toMatchObject({ port: 65_535 });
    expect(declare({ port: 8793, paths: [] })).toThrow("paths must list its REST path prefixes");
    expect(declare({ port: 8793, paths: ["v1/notes"] })).toThrow('paths: "v1/notes" is not a path prefix');
    expect(declare({ port: 8793, paths: ["/v1/notes"], bus: { nodeRouted: "yes" } })).toThrow("bus.nodeRouted must be true or false");
    expect(declare({ port: 8793, paths: ["/v1/notes"], bus: { publishes: ["events .>"] } })).toThrow(
      "bus.publishes must list NATS subjects",
    );
    expect(declare({ port: 8793, paths: ["/v1/notes"], replicas: 2 })).toThrow("replicas is not a field this repository reads");
    expect(declare({ port: 8793, paths: ["/v1/notes"] }, "Notes")).toThrow(
      "the service folder's name must be lowercase letters and digits",
    );
    expect(() => parseDeclaration("notes", { name: "notes", bancada: { port: 8793, paths: ["/v1/notes"] } })).toThrow(
      "the package must be named @bancada/notes",
    );
  });
});
