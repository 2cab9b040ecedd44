/** A column type as Postgres's format_type() spells it, or an enum named by schema and type name. */
export type ColumnType =
  | { kind: 'builtin'; name: string; isList: boolean }
  | { kind: 'enum'; schema: string; name: string; isList: boolean };

export interface ScalarFieldType {
  /** The Prisma scalar: String, Int, BigInt, Float, Decimal, DateTime, Boolean, Json, Bytes. */
  scalar: string;
  /** `@db.VarChar(255)` is `['VarChar', ['255']]`. */
  nativeType?: readonly [string, readonly string[]] | null;
  isList: boolean;
}

const SCALAR_DEFAULTS: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  DateTime: 'timestamp(3) without time zone',
  Boolean: 'boolean',
  Json: 'jsonb',
  Bytes: 'bytea',
};

/** What a Prisma scalar field becomes in Postgres, in the form format_type() prints it. */
export function postgresTypeOf(field: ScalarFieldType): ColumnType {
  const name = field.nativeType ? nativeTypeName(field.nativeType[0], field.nativeType[1]) : SCALAR_DEFAULTS[field.scalar];
  if (!name) {
    throw new Error(`No Postgres type is known for the Prisma scalar ${field.scalar}`);
  }
  return { kind: 'builtin', name, isList: field.isList };
}

function nativeTypeName(nativeType: string, args: readonly string[]): string {
  const modifier = args.length ? `(${args.join(',')})` : '';
  switch (nativeType) {
    case 'Text':
    case 'Boolean':
    case 'Date':
    case 'Inet':
    case 'Money':
    case 'Oid':
    case 'Real':
    case 'Uuid':
    case 'Xml':
    case 'Json':
    case 'Citext':
      return nativeType.toLowerCase();
    case 'JsonB':
      return 'jsonb';
    case 'ByteA':
      return 'bytea';
    case 'SmallInt':
      return 'smallint';
    case 'Integer':
      return 'integer';
    case 'BigInt':
      return 'bigint';
    case 'DoublePrecision':
      return 'double precision';
    case 'Decimal':
      return `numeric${modifier}`;
    case 'VarChar':
      return `character varying${modifier}`;
    // Postgres reads a bare CHAR or BIT as length 1.
    case 'Char':
      return `character${modifier || '(1)'}`;
    case 'Bit':
      return `bit${modifier || '(1)'}`;
    case 'VarBit':
      return `bit varying${modifier}`;
    case 'Timestamp':
      return `timestamp${modifier} without time zone`;
    case 'Timestamptz':
      return `timestamp${modifier} with time zone`;
    case 'Time':
      return `time${modifier} without time zone`;
    case 'Timetz':
      return `time${modifier} with time zone`;
    default:
      return nativeType.toLowerCase();
  }
}

export function describeColumnType(type: ColumnType): string {
  const base = type.kind === 'enum' ? `enum "${type.schema}"."${type.name}"` : type.name;
  return type.isList ? `${base}[]` : base;
}

export function sameColumnType(a: ColumnType, b: ColumnType): boolean {
  return describeColumnType(a) === describeColumnType(b);
}
