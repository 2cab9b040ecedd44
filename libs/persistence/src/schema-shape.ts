import type { ColumnType } from './postgres-column-type.js';

/** The parts of a Postgres schema that a Prisma schema describes, both as the schema wants them and as they are. */

export type ReferentialAction = 'CASCADE' | 'RESTRICT' | 'NO ACTION' | 'SET NULL' | 'SET DEFAULT';

export type IndexKind = 'primary key' | 'unique index' | 'index';

export interface IndexColumn {
  /** null for an expression. */
  name: string | null;
  descending: boolean;
}

export interface ColumnShape {
  name: string;
  type: ColumnType;
  /** undefined where the schema leaves it open (Prisma's scalar lists). */
  nullable: boolean | undefined;
  /** Filled by a sequence (SERIAL) or an identity; undefined where the schema leaves it to the database. */
  autoincrement: boolean | undefined;
  hasDatabaseDefault: boolean;
  /** Where the schema declares it (`Account.email`), for messages. */
  source?: string;
}

export interface IndexShape {
  kind: IndexKind;
  columns: IndexColumn[];
  /** Access method: btree, hash, gin… */
  method: string;
  name?: string;
  source?: string;
}

export interface ForeignKeyShape {
  columns: string[];
  referencedSchema: string;
  referencedTable: string;
  referencedColumns: string[];
  onDelete: ReferentialAction;
  onUpdate: ReferentialAction;
  name?: string;
  source?: string;
}

export interface TableShape {
  name: string;
  /** The Prisma model, on the schema's side. */
  model?: string;
  columns: ColumnShape[];
  indexes: IndexShape[];
  foreignKeys: ForeignKeyShape[];
}

export interface EnumShape {
  name: string;
  values: string[];
}

export interface SchemaShape {
  schema: string;
  tables: TableShape[];
  enums: EnumShape[];
}
