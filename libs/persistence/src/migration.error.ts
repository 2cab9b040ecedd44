/** A migration that cannot be applied, or whose recorded state forbids going on; names the migration. */
export class MigrationError extends Error {
  constructor(
    readonly migrationName: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = MigrationError.name;
  }
}
