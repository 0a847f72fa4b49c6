/**
 * Absolute path of the executable stand-in for Prisma's native `schema-engine`
 * (Prisma's WebAssembly schema engine over adapter-pg). Use it in `prisma.config.ts`:
 * `process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= schemaEnginePath`.
 */
export declare const schemaEnginePath: string;

export interface ComponentPrismaConfigOptions {
  /** The component's folder (`import.meta.dirname` of its prisma.config.ts): it holds `prisma/schema.prisma` and `prisma/migrations`. */
  dir: string;
  /** The component's Postgres schema. */
  schema: string;
  /** The component's own database variable (e.g. `SCRIPTS_DATABASE_URL`), read before DATABASE_URL. */
  envName: string;
}

/**
 * A component's Prisma CLI configuration, for `defineConfig` from `prisma/config`; uses the stand-in schema
 * engine unless PRISMA_SCHEMA_ENGINE_BINARY names another.
 */
export declare function componentPrismaConfig(options: ComponentPrismaConfigOptions): {
  schema: string;
  migrations: { path: string };
  datasource: { url: string };
};
