/**
 * fast-check arbitraries from the JSON Schemas our tools publish (the subset they use: object, string with
 * length, pattern, enum and the uuid/date/date-time formats, number and integer ranges, boolean, array, anyOf,
 * allOf, null). `validShaped` follows the schema; `mangled` breaks it the ways clients do: a wrong type, a number
 * out of range, a very long or exotic string, an extra key, a required key left out.
 */
import fc from "fast-check";

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/** Strings a client may send that are hard on a server: long, astral, control, RTL, NUL, SQL and path shapes. */
const hostileString = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🧪", "\u202eevil", "../../etc/passwd", "'; DROP TABLE x; --", "%00", "\ud800"),
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => "x".repeat(n)),
);

const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  hostileString,
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

const maxGeneratedItems = 5;

export function validShaped(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf ?? schema.oneOf) return fc.oneof(...(schema.anyOf ?? schema.oneOf)!.map(validShaped));
  if (schema.allOf) return validShaped(Object.assign({}, ...schema.allOf, { allOf: undefined }) as JsonSchema);
  const types = ([] as string[]).concat(schema.type ?? (schema.properties ? "object" : []));
  if (types.length > 1) return fc.oneof(...types.map((type) => validShaped({ ...schema, type })));
  switch (types[0]) {
    case "object":
      return objectOf(schema);
    case "array":
      return fc.array(validShaped(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? maxGeneratedItems, Math.max(schema.minItems ?? 0, maxGeneratedItems)),
      });
    case "string":
      return stringOf(schema);
    case "integer":
      return fc.integer({ min: Math.ceil(lowerOf(schema, -1e6)), max: Math.floor(upperOf(schema, 1e6)) });
    case "number":
      return fc.double({ min: lowerOf(schema, -1e6), max: upperOf(schema, 1e6), noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return anyJson;
  }
}

/** One thing wrong with an otherwise valid-shaped value (at the top or one level down). */
export function mangled(schema: JsonSchema): fc.Arbitrary<unknown> {
  const base = validShaped(schema);
  const properties = Object.entries(schema.properties ?? {});
  const options: fc.Arbitrary<unknown>[] = [anyJson];
  if (properties.length > 0) {
    const object = base.filter((value): value is Record<string, unknown> => typeof value === "object" && value !== null);
    const name = fc.constantFrom(...properties.map(([key]) => key));
    options.push(
      // a wrong type or a hostile value for one field
      fc.tuple(object, name, anyJson).map(([value, key, bad]) => ({ ...value, [key]: bad })),
      // a field's own schema broken one level down
      fc
        .tuple(object, fc.constantFrom(...properties))
        .chain(([value, [key, inner]]) => mangledLeaf(inner).map((bad) => ({ ...value, [key]: bad }))),
      // an extra key
      fc.tuple(object, fc.string({ minLength: 1, maxLength: 12 }), anyJson).map(([value, key, extra]) => ({ ...value, [key]: extra })),
    );
    if ((schema.required ?? []).length > 0) {
      options.push(
        fc.tuple(object, fc.constantFrom(...schema.required!)).map(([value, key]) => {
          const { [key]: _dropped, ...rest } = value;
          return rest;
        }),
      );
    }
  }
  return fc.oneof(...options);
}

function mangledLeaf(schema: JsonSchema): fc.Arbitrary<unknown> {
  const type = ([] as string[]).concat(schema.type ?? [])[0];
  if (type === "integer" || type === "number") {
    return fc.oneof(
      fc.constantFrom(upperOf(schema, 1e6) + 1, lowerOf(schema, -1e6) - 1, 0.5, -0, 2 ** 53, -(2 ** 63), 1e308),
      fc.constant("12"),
    );
  }
  if (type === "string") {
    const long = (schema.maxLength ?? 0) + 1;
    return fc.oneof(hostileString, fc.constant("y".repeat(Math.min(long, 200_000))), fc.constant(1));
  }
  if (type === "array")
    return fc.oneof(
      fc.constant("not an array"),
      fc.array(anyJson, { minLength: (schema.maxItems ?? 5) + 1, maxLength: (schema.maxItems ?? 5) + 1 }),
    );
  if (type === "object" || schema.properties) return mangled(schema);
  return anyJson;
}

function objectOf(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(properties).map(([key, inner]) => [key, validShaped(inner)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case "uuid":
      return fc.uuid();
    case "date":
      return fc
        .date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case "date-time":
      return fc.date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
  }
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, Math.max(min, 40));
  if (schema.pattern)
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
  return fc.string({ unit: "grapheme", minLength: min, maxLength: max });
}

function lowerOf(schema: JsonSchema, fallback: number): number {
  return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : fallback);
}

function upperOf(schema: JsonSchema, fallback: number): number {
  return schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : fallback);
}
