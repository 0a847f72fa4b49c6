/**
 * Absolute path of the executable stand-in for Prisma's native `schema-engine`
 * (Prisma's WebAssembly schema engine over adapter-pg). Use it in `prisma.config.ts`:
 * `process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= schemaEnginePath`.
 */
export declare const schemaEnginePath: string;
