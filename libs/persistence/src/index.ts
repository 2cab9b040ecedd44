export { ensureDatabase } from './ensure-database.js';
export { MigrationError } from './migration.error.js';
export { migrate, type MigrateOptions, type MigrateResult, type MigrationLogger } from './migrator.js';
export { createPgAdapter, type PgAdapterOptions } from './prisma-adapter.js';
export { databaseAnswersAfresh, PoolProgress, QUERY_TIMEOUT_GRACE_MS, type SessionLimits } from './session-limits.js';
export { findSchemaDrift, type SchemaDriftOptions } from './schema-drift.js';
export { prepareSchema, type PrepareSchemaOptions } from './prepare-schema.js';
export { canManageRoles, ensureServiceRole, serviceRoleName } from './service-role.js';
export { containsPattern } from './search-pattern.js';
