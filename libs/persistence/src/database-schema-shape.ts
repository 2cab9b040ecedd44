import type { Client } from 'pg';

import type { ColumnType } from './postgres-column-type.js';
import type { ColumnShape, ForeignKeyShape, IndexShape, ReferentialAction, SchemaShape, TableShape } from './schema-shape.js';

interface ColumnRow {
  table_name: string;
  column_name: string;
  attnum: number;
  formatted_type: string;
  not_null: boolean;
  default_expression: string | null;
  is_identity: boolean;
  is_array: boolean;
  base_type_kind: string;
  base_type_name: string;
  base_type_schema: string;
}

interface IndexRow {
  table_name: string;
  index_name: string;
  is_primary: boolean;
  is_unique: boolean;
  key_columns: string;
  key_options: string;
  key_count: number;
  method: string;
}

interface ForeignKeyRow {
  table_name: string;
  constraint_name: string;
  columns: string[];
  referenced_schema: string;
  referenced_table: string;
  referenced_columns: string[];
  on_delete: string;
  on_update: string;
}

interface EnumRow {
  enum_name: string;
  values: string[];
}

const ACTION_CODES: Record<string, ReferentialAction> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

// pg_index.indoption: bit 0 marks a descending key column.
const INDOPTION_DESC = 1;

const TABLES_QUERY = `SELECT c.relname AS table_name
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition`;

const COLUMNS_QUERY = `SELECT c.relname AS table_name, a.attname AS column_name, a.attnum,
          format_type(a.atttypid, a.atttypmod) AS formatted_type,
          a.attnotnull AS not_null,
          pg_get_expr(d.adbin, d.adrelid) AS default_expression,
          a.attidentity <> '' AS is_identity,
          t.typcategory = 'A' AS is_array,
          coalesce(et.typtype, t.typtype)::text AS base_type_kind,
          coalesce(et.typname, t.typname)::text AS base_type_name,
          bn.nspname::text AS base_type_schema
     FROM pg_attribute a
     JOIN pg_class c ON c.oid = a.attrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_type t ON t.oid = a.atttypid
     LEFT JOIN pg_type et ON t.typcategory = 'A' AND et.oid = t.typelem
     JOIN pg_namespace bn ON bn.oid = coalesce(et.typnamespace, t.typnamespace)
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY c.relname, a.attnum`;

const INDEXES_QUERY = `SELECT tc.relname AS table_name, ic.relname AS index_name,
          i.indisprimary AS is_primary, i.indisunique AS is_unique,
          i.indkey::text AS key_columns, i.indoption::text AS key_options, i.indnkeyatts AS key_count,
          am.amname::text AS method
     FROM pg_index i
     JOIN pg_class ic ON ic.oid = i.indexrelid
     JOIN pg_class tc ON tc.oid = i.indrelid
     JOIN pg_namespace n ON n.oid = tc.relnamespace
     JOIN pg_am am ON am.oid = ic.relam
    WHERE n.nspname = $1 AND tc.relkind IN ('r', 'p')`;

const FOREIGN_KEYS_QUERY = `SELECT tc.relname AS table_name, con.conname AS constraint_name,
          (SELECT array_agg(a.attname::text ORDER BY k.ord)
             FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
          rn.nspname::text AS referenced_schema, rc.relname::text AS referenced_table,
          (SELECT array_agg(a.attname::text ORDER BY k.ord)
             FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
             JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS referenced_columns,
          con.confdeltype::text AS on_delete, con.confupdtype::text AS on_update
     FROM pg_constraint con
     JOIN pg_class tc ON tc.oid = con.conrelid
     JOIN pg_namespace n ON n.oid = tc.relnamespace
     JOIN pg_class rc ON rc.oid = con.confrelid
     JOIN pg_namespace rn ON rn.oid = rc.relnamespace
    WHERE n.nspname = $1 AND con.contype = 'f'`;

const ENUMS_QUERY = `SELECT t.typname::text AS enum_name,
          coalesce(array_agg(e.enumlabel::text ORDER BY e.enumsortorder) FILTER (WHERE e.enumlabel IS NOT NULL), '{}') AS values
     FROM pg_type t
     JOIN pg_namespace n ON n.oid = t.typnamespace
     LEFT JOIN pg_enum e ON e.enumtypid = t.oid
    WHERE n.nspname = $1 AND t.typtype = 'e'
    GROUP BY t.typname`;

/** What one Postgres schema really holds, read from the system catalogs. */
export async function readDatabaseSchemaShape(client: Client, schema: string): Promise<SchemaShape> {
  const tables = await client.query<{ table_name: string }>(TABLES_QUERY, [schema]);
  const columns = await client.query<ColumnRow>(COLUMNS_QUERY, [schema]);
  const indexes = await client.query<IndexRow>(INDEXES_QUERY, [schema]);
  const foreignKeys = await client.query<ForeignKeyRow>(FOREIGN_KEYS_QUERY, [schema]);
  const enums = await client.query<EnumRow>(ENUMS_QUERY, [schema]);

  const byTable = new Map<string, TableShape>(
    tables.rows.map(({ table_name }) => [table_name, { name: table_name, columns: [], indexes: [], foreignKeys: [] }]),
  );
  const columnNames = new Map<string, Map<number, string>>();
  for (const row of columns.rows) {
    byTable.get(row.table_name)?.columns.push(columnOf(row));
    const names = columnNames.get(row.table_name) ?? new Map<number, string>();
    names.set(row.attnum, row.column_name);
    columnNames.set(row.table_name, names);
  }
  for (const row of indexes.rows) {
    byTable.get(row.table_name)?.indexes.push(indexOf(row, columnNames.get(row.table_name) ?? new Map()));
  }
  for (const row of foreignKeys.rows) {
    byTable.get(row.table_name)?.foreignKeys.push(foreignKeyOf(row));
  }
  return {
    schema,
    tables: [...byTable.values()],
    enums: enums.rows.map((row) => ({ name: row.enum_name, values: row.values })),
  };
}

function columnOf(row: ColumnRow): ColumnShape {
  const isSequence = row.default_expression?.startsWith('nextval(') ?? false;
  return {
    name: row.column_name,
    type: columnTypeOf(row),
    nullable: !row.not_null,
    autoincrement: row.is_identity || isSequence,
    hasDatabaseDefault: row.default_expression !== null || row.is_identity,
  };
}

function columnTypeOf(row: ColumnRow): ColumnType {
  if (row.base_type_kind === 'e') {
    return { kind: 'enum', schema: row.base_type_schema, name: row.base_type_name, isList: row.is_array };
  }
  // format_type() qualifies types outside the search path; only pg_catalog's spellings carry modifiers we compare.
  const name =
    row.base_type_schema === 'pg_catalog' ? row.formatted_type.replace(/\[\]$/, '') : row.base_type_name;
  return { kind: 'builtin', name, isList: row.is_array };
}

function indexOf(row: IndexRow, columnNames: Map<number, string>): IndexShape {
  const attnums = row.key_columns.split(' ').map(Number).slice(0, row.key_count);
  const options = row.key_options.split(' ').map(Number);
  return {
    kind: row.is_primary ? 'primary key' : row.is_unique ? 'unique index' : 'index',
    columns: attnums.map((attnum, position) => ({
      name: attnum === 0 ? null : (columnNames.get(attnum) ?? null),
      descending: ((options[position] ?? 0) & INDOPTION_DESC) !== 0,
    })),
    method: row.method,
    name: row.index_name,
  };
}

function foreignKeyOf(row: ForeignKeyRow): ForeignKeyShape {
  return {
    columns: row.columns,
    referencedSchema: row.referenced_schema,
    referencedTable: row.referenced_table,
    referencedColumns: row.referenced_columns,
    onDelete: ACTION_CODES[row.on_delete] ?? 'NO ACTION',
    onUpdate: ACTION_CODES[row.on_update] ?? 'NO ACTION',
    name: row.constraint_name,
  };
}
