import { describeColumnType, sameColumnType } from './postgres-column-type.js';
import type { ColumnShape, EnumShape, ForeignKeyShape, IndexShape, SchemaShape, TableShape } from './schema-shape.js';

const MIGRATIONS_TABLE = '_prisma_migrations';

/** Every way the database schema differs from what the Prisma schema describes, one sentence each. */
export function compareSchemaShapes(expected: SchemaShape, actual: SchemaShape): string[] {
  const schema = expected.schema;
  const actualTables = new Map(actual.tables.map((table) => [table.name, table]));
  const differences: string[] = [];
  for (const table of expected.tables) {
    const found = actualTables.get(table.name);
    if (!found) {
      differences.push(`table ${schema}.${table.name} (model ${table.model}) is missing from the database`);
      continue;
    }
    const where = `${schema}.${table.name}`;
    differences.push(
      ...compareColumns(where, table, found),
      ...compareIndexes(where, table.indexes, found.indexes),
      ...compareForeignKeys(where, table.foreignKeys, found.foreignKeys),
    );
  }
  const modelled = new Set(expected.tables.map((table) => table.name));
  for (const table of actual.tables) {
    if (!modelled.has(table.name) && table.name !== MIGRATIONS_TABLE) {
      differences.push(`table ${schema}.${table.name} exists in the database but no model maps to it`);
    }
  }
  differences.push(...compareEnums(schema, expected.enums, actual.enums));
  return differences;
}

function compareColumns(where: string, expected: TableShape, actual: TableShape): string[] {
  const actualColumns = new Map(actual.columns.map((column) => [column.name, column]));
  const differences: string[] = [];
  for (const column of expected.columns) {
    const found = actualColumns.get(column.name);
    const label = `column ${where}.${column.name} (${column.source})`;
    if (!found) {
      differences.push(`${label} is missing from the database`);
      continue;
    }
    differences.push(...compareColumn(label, column, found));
  }
  const declared = new Set(expected.columns.map((column) => column.name));
  for (const column of actual.columns.filter(({ name }) => !declared.has(name))) {
    differences.push(`column ${where}.${column.name} exists in the database but not in model ${expected.model}`);
  }
  return differences;
}

function compareColumn(label: string, expected: ColumnShape, actual: ColumnShape): string[] {
  const differences: string[] = [];
  if (!sameColumnType(expected.type, actual.type)) {
    differences.push(
      `${label} has type ${describeColumnType(actual.type)} in the database, the schema expects ${describeColumnType(expected.type)}`,
    );
  }
  if (expected.nullable !== undefined && expected.nullable !== actual.nullable) {
    differences.push(
      expected.nullable
        ? `${label} is NOT NULL in the database but optional in the schema`
        : `${label} is nullable in the database but required in the schema`,
    );
  }
  if (expected.autoincrement !== undefined && expected.autoincrement !== actual.autoincrement) {
    differences.push(
      expected.autoincrement
        ? `${label} has no sequence in the database but the schema declares @default(autoincrement())`
        : `${label} is filled by a sequence in the database but the schema declares no @default(autoincrement())`,
    );
  } else if (expected.hasDatabaseDefault !== actual.hasDatabaseDefault) {
    differences.push(
      expected.hasDatabaseDefault
        ? `${label} has no default in the database but the schema declares one`
        : `${label} has a default in the database that the schema does not declare`,
    );
  }
  return differences;
}

function compareIndexes(where: string, expected: IndexShape[], actual: IndexShape[]): string[] {
  const unmatched = [...actual];
  const take = (index: IndexShape) => unmatched.splice(unmatched.indexOf(index), 1);
  const differences: string[] = [];
  for (const index of expected) {
    const label = `${index.kind} on ${where} ${columnList(index)} (${index.source})`;
    const sameColumns = unmatched.filter((candidate) => sameNames(candidate.columns.map(({ name }) => name), index.columns.map(({ name }) => name)));
    const found =
      sameColumns.find((candidate) => candidate.kind === index.kind && columnList(candidate) === columnList(index)) ??
      sameColumns.find((candidate) => candidate.kind === index.kind);
    if (!found) {
      const other = sameColumns[0];
      if (other) {
        take(other);
        differences.push(`${label} is ${withArticle(other.kind)} (${other.name}) in the database`);
      } else {
        differences.push(`${label} is missing from the database`);
      }
      continue;
    }
    take(found);
    if (columnList(found) !== columnList(index)) {
      differences.push(`${label} is ${columnList(found)} in the database`);
    }
    if (found.method !== index.method) {
      differences.push(`${label} uses ${found.method} in the database, the schema expects ${index.method}`);
    }
    if (index.name && found.name !== index.name) {
      differences.push(`${label} is named ${found.name} in the database, the schema maps it to ${index.name}`);
    }
  }
  for (const index of unmatched) {
    differences.push(`${index.kind} ${index.name} on ${where} ${columnList(index)} exists in the database but not in the schema`);
  }
  return differences;
}

function compareForeignKeys(where: string, expected: ForeignKeyShape[], actual: ForeignKeyShape[]): string[] {
  const unmatched = [...actual];
  const differences: string[] = [];
  for (const key of expected) {
    const label = `foreign key ${where} (${key.columns.join(', ')}) → ${target(key)} (${key.source})`;
    const found = unmatched.find(
      (candidate) => sameNames(candidate.columns, key.columns) && target(candidate) === target(key),
    );
    if (!found) {
      differences.push(`${label} is missing from the database`);
      continue;
    }
    unmatched.splice(unmatched.indexOf(found), 1);
    if (found.onDelete !== key.onDelete) {
      differences.push(`${label} is ON DELETE ${found.onDelete} in the database, the schema expects ${key.onDelete}`);
    }
    if (found.onUpdate !== key.onUpdate) {
      differences.push(`${label} is ON UPDATE ${found.onUpdate} in the database, the schema expects ${key.onUpdate}`);
    }
  }
  for (const key of unmatched) {
    differences.push(
      `foreign key ${key.name} ${where} (${key.columns.join(', ')}) → ${target(key)} exists in the database but not in the schema`,
    );
  }
  return differences;
}

function compareEnums(schema: string, expected: EnumShape[], actual: EnumShape[]): string[] {
  const actualEnums = new Map(actual.map((prismaEnum) => [prismaEnum.name, prismaEnum]));
  const differences: string[] = [];
  for (const prismaEnum of expected) {
    const found = actualEnums.get(prismaEnum.name);
    const label = `enum ${schema}.${prismaEnum.name}`;
    if (!found) {
      differences.push(`${label} is missing from the database`);
      continue;
    }
    for (const value of prismaEnum.values.filter((value) => !found.values.includes(value))) {
      differences.push(`${label} lacks the value '${value}' in the database`);
    }
    for (const value of found.values.filter((value) => !prismaEnum.values.includes(value))) {
      differences.push(`${label} has the value '${value}' in the database, which the schema does not declare`);
    }
  }
  const declared = new Set(expected.map(({ name }) => name));
  for (const prismaEnum of actual.filter(({ name }) => !declared.has(name))) {
    differences.push(`enum ${schema}.${prismaEnum.name} exists in the database but not in the schema`);
  }
  return differences;
}

function withArticle(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function columnList(index: IndexShape): string {
  const columns = index.columns.map(({ name, descending }) => `${name ?? '(expression)'}${descending ? ' DESC' : ''}`);
  return `(${columns.join(', ')})`;
}

function target(key: ForeignKeyShape): string {
  return `${key.referencedSchema}.${key.referencedTable} (${key.referencedColumns.join(', ')})`;
}

function sameNames(a: readonly (string | null)[], b: readonly (string | null)[]): boolean {
  return a.length === b.length && a.every((name, position) => name === b[position]);
}
