import type internals from '@prisma/internals';

import { ColumnType, postgresTypeOf } from './postgres-column-type.js';
import type {
  ColumnShape,
  EnumShape,
  ForeignKeyShape,
  IndexKind,
  IndexShape,
  ReferentialAction,
  SchemaShape,
  TableShape,
} from './schema-shape.js';

type Datamodel = Awaited<ReturnType<typeof internals.getDMMF>>['datamodel'];
type Model = Datamodel['models'][number];
type Field = Model['fields'][number];
type Index = Datamodel['indexes'][number];

/** Defaults Prisma's client fills in itself, so the database column has none. */
const CLIENT_SIDE_DEFAULTS = new Set(['uuid', 'cuid', 'nanoid', 'ulid']);

const INDEX_KINDS: Record<string, IndexKind> = { id: 'primary key', unique: 'unique index', normal: 'index' };

const REFERENTIAL_ACTIONS: Record<string, ReferentialAction> = {
  Cascade: 'CASCADE',
  Restrict: 'RESTRICT',
  NoAction: 'NO ACTION',
  SetNull: 'SET NULL',
  SetDefault: 'SET DEFAULT',
};

/** What the Prisma schema asks of one Postgres schema: the models, enums and indexes that live there. */
export async function readPrismaSchemaShape(source: string, schema: string): Promise<SchemaShape> {
  // Loaded on demand: services import this library at run time, where Prisma's tooling has no business.
  const { default: prismaInternals } = await import('@prisma/internals');
  const { datamodel } = await prismaInternals.getDMMF({ datamodel: source });
  const enumSchemas = enumSchemasOf(source);
  const enumSchemaOf = (name: string) => enumSchemas.get(name) ?? schema;
  const enumDbName = new Map(datamodel.enums.map((prismaEnum) => [prismaEnum.name, prismaEnum.dbName ?? prismaEnum.name]));

  const context: ShapeContext = { datamodel, schema, enumSchemaOf, enumDbName };
  return {
    schema,
    tables: datamodel.models.filter((model) => (model.schema ?? schema) === schema).map((model) => tableOf(model, context)),
    enums: datamodel.enums
      .filter((prismaEnum) => enumSchemaOf(prismaEnum.name) === schema)
      .map(
        (prismaEnum): EnumShape => ({
          name: prismaEnum.dbName ?? prismaEnum.name,
          values: prismaEnum.values.map((value) => value.dbName ?? value.name),
        }),
      ),
  };
}

interface ShapeContext {
  datamodel: Datamodel;
  schema: string;
  enumSchemaOf: (name: string) => string;
  enumDbName: Map<string, string>;
}

function tableOf(model: Model, context: ShapeContext): TableShape {
  return {
    name: tableNameOf(model),
    model: model.name,
    columns: model.fields
      .filter((field) => field.kind === 'scalar' || field.kind === 'enum')
      .map((field) => columnOf(model, field, context)),
    indexes: context.datamodel.indexes.filter((index) => index.model === model.name).flatMap((index) => indexOf(model, index)),
    foreignKeys: model.fields
      .filter((field) => field.kind === 'object' && field.relationFromFields?.length)
      .map((field) => foreignKeyOf(model, field, context)),
  };
}

function columnOf(model: Model, field: Field, context: ShapeContext): ColumnShape {
  const type: ColumnType =
    field.kind === 'enum'
      ? {
          kind: 'enum',
          schema: context.enumSchemaOf(field.type),
          name: context.enumDbName.get(field.type) ?? field.type,
          isList: field.isList,
        }
      : postgresTypeOf({ scalar: field.type, nativeType: field.nativeType, isList: field.isList });
  const defaultName = defaultFunctionOf(field);
  return {
    name: columnNameOf(field),
    type,
    // Prisma creates scalar lists without NOT NULL whatever the schema says.
    nullable: field.isList ? undefined : !field.isRequired,
    // dbgenerated() may well be a nextval() the schema does not spell out.
    autoincrement: defaultName === 'dbgenerated' ? undefined : defaultName === 'autoincrement',
    hasDatabaseDefault: field.default !== undefined && !(defaultName && CLIENT_SIDE_DEFAULTS.has(defaultName)),
    source: `${model.name}.${field.name}`,
  };
}

/** `autoincrement` for `@default(autoincrement())`; undefined for literals and no default. */
function defaultFunctionOf(field: Field): string | undefined {
  const value = field.default;
  return value !== undefined && typeof value === 'object' && 'name' in value ? value.name : undefined;
}

function indexOf(model: Model, index: Index): IndexShape[] {
  const kind = INDEX_KINDS[index.type];
  if (!kind) {
    return [];
  }
  const attribute = kind === 'primary key' ? 'id' : kind === 'unique index' ? 'unique' : 'index';
  return [
    {
      kind,
      columns: index.fields.map((indexField) => ({
        name: columnNameOf(fieldNamed(model, indexField.name)),
        descending: indexField.sortOrder === 'desc',
      })),
      method: (index.algorithm ?? 'BTree').toLowerCase(),
      name: index.dbName ?? undefined,
      source: index.isDefinedOnField
        ? `@${attribute} on ${model.name}.${index.fields[0]?.name}`
        : `@@${attribute} of ${model.name}`,
    },
  ];
}

function foreignKeyOf(model: Model, field: Field, context: ShapeContext): ForeignKeyShape {
  const target = context.datamodel.models.find((candidate) => candidate.name === field.type);
  if (!target) {
    throw new Error(`Relation ${model.name}.${field.name} points at unknown model ${field.type}`);
  }
  return {
    columns: (field.relationFromFields ?? []).map((name) => columnNameOf(fieldNamed(model, name))),
    referencedSchema: target.schema ?? context.schema,
    referencedTable: tableNameOf(target),
    referencedColumns: (field.relationToFields ?? []).map((name) => columnNameOf(fieldNamed(target, name))),
    onDelete: referentialAction(field.relationOnDelete ?? (field.isRequired ? 'Restrict' : 'SetNull')),
    onUpdate: referentialAction(field.relationOnUpdate ?? 'Cascade'),
    source: `${model.name}.${field.name}`,
  };
}

function referentialAction(prismaAction: string): ReferentialAction {
  const action = REFERENTIAL_ACTIONS[prismaAction];
  if (!action) {
    throw new Error(`Unknown referential action ${prismaAction}`);
  }
  return action;
}

function fieldNamed(model: Model, name: string): Field {
  const field = model.fields.find((candidate) => candidate.name === name);
  if (!field) {
    throw new Error(`Model ${model.name} has no field ${name}`);
  }
  return field;
}

function tableNameOf(model: Model): string {
  return model.dbName ?? model.name;
}

function columnNameOf(field: Field): string {
  return field.dbName ?? field.name;
}

/** The DMMF leaves out an enum's `@@schema`, so it is read from the schema text. */
function enumSchemasOf(source: string): Map<string, string> {
  const withoutComments = source.replace(/\/\/.*$/gm, '');
  const schemas = new Map<string, string>();
  for (const [, name, body] of withoutComments.matchAll(/^\s*enum\s+(\w+)\s*\{([^}]*)\}/gm)) {
    const schema = /@@schema\(\s*"([^"]+)"\s*\)/.exec(body ?? '')?.[1];
    if (name && schema) {
      schemas.set(name, schema);
    }
  }
  return schemas;
}
