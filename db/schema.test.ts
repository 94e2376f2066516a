// db/schema.ts is written by hand beside the migrations; this checks it against what the migrations really build.
//
// A fresh database is migrated with the project's migrator, every table and column of the public schema is read
// from information_schema, and db/schema.ts is read with the TypeScript compiler (its type checker resolves the
// aliases: CreatedAt, Generated<…>, ColumnType<…>, Sport, PresetPosition…). Kysely's ColumnType<S, I, U> is an
// object type with __select__/__insert__ members (Generated<S> is ColumnType<S, S | undefined, S>); a plain type T
// is S = I = T. The rules, each checked in both directions:
// - tables: every public base table (but Kysely's own kysely_migration*) is a key of `Database`, and vice versa;
// - columns: every column of a table is a property of its interface, and vice versa;
// - nullability: a column is nullable ⇔ its select type includes `null`;
// - defaults, for a not-null column: it has a default (or is an identity/generated column) ⇔ its insert type
//   includes `undefined`, i.e. an insert may leave it out (Generated<…> or a ColumnType whose insert type allows
//   undefined). A nullable column may be left out either way: PostgreSQL fills it (null or its default), and Kysely's
//   Insertable already makes a column optional when its insert type allows null;
// - types: every member of the select type (null aside) is what postgres.js returns for the column's data type,
//   with no type parsers configured (db/index.ts): text/varchar/char/uuid → string (or string literals);
//   integer/smallint/real/double precision → number; bigint/numeric → string; timestamp(tz)/date → Date;
//   boolean → boolean; json/jsonb → an object or array type; arrays (integer[], real[]: ARRAY) → an array type.
// graphile-worker keeps its tables in its own schema, so reading only `public` leaves them out.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import ts from "typescript";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createOwnDatabase } from "../tests/support/webhook-receiver";
import { createDb, migrate, type DB } from "./index";

const schemaFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "schema.ts");

interface DbColumn {
  table: string;
  column: string;
  dataType: string;
  nullable: boolean;
  /** The default expression, or "identity"/"generated" for such columns; null when the column has none. */
  default: string | null;
}

interface TsColumn {
  /** The select type as written by the checker, e.g. "string | null". */
  select: string;
  insert: string;
  nullable: boolean;
  optionalOnInsert: boolean;
  /** Each member of the select type other than null, classified. */
  kinds: Kind[];
}

type Kind = "string" | "number" | "boolean" | "Date" | "object" | "bigint" | "other";

/** What postgres.js hands back for each PostgreSQL data type (information_schema.columns.data_type). */
const expectedKinds: Record<string, Kind[]> = {
  text: ["string"],
  "character varying": ["string"],
  character: ["string"],
  uuid: ["string"],
  smallint: ["number"],
  integer: ["number"],
  real: ["number"],
  "double precision": ["number"],
  bigint: ["string"],
  numeric: ["string"],
  "timestamp with time zone": ["Date"],
  "timestamp without time zone": ["Date"],
  date: ["Date"],
  boolean: ["boolean"],
  json: ["object"],
  jsonb: ["object"],
  ARRAY: ["object"],
  tsvector: ["string"],
};

async function readDatabase(db: DB): Promise<Map<string, Map<string, DbColumn>>> {
  const { rows } = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
    is_generated: string;
  }>`
    select c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default, c.is_identity, c.is_generated
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.table_name not like 'kysely\\_migration%'
    order by c.table_name, c.ordinal_position`.execute(db);
  const tables = new Map<string, Map<string, DbColumn>>();
  for (const r of rows) {
    const columns = tables.get(r.table_name) ?? new Map<string, DbColumn>();
    tables.set(r.table_name, columns);
    const generated = r.is_identity === "YES" ? "identity" : r.is_generated === "ALWAYS" ? "generated" : null;
    columns.set(r.column_name, { table: r.table_name, column: r.column_name, dataType: r.data_type, nullable: r.is_nullable === "YES", default: r.column_default ?? generated });
  }
  return tables;
}

function classify(checker: ts.TypeChecker, type: ts.Type): Kind {
  if (type.flags & ts.TypeFlags.StringLike) return "string";
  if (type.flags & ts.TypeFlags.NumberLike) return "number";
  if (type.flags & ts.TypeFlags.BooleanLike) return "boolean";
  if (type.flags & ts.TypeFlags.BigIntLike) return "bigint";
  if (type.flags & ts.TypeFlags.Object) return type.getSymbol()?.getName() === "Date" ? "Date" : "object";
  return "other";
}

function readSchemaTs(): Map<string, Map<string, TsColumn>> {
  const program = ts.createProgram([schemaFile], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    noEmit: true,
  });
  const source = program.getSourceFile(schemaFile);
  if (!source) throw new Error(`TypeScript could not read ${schemaFile}`);
  // An unresolved import (kysely) would turn every ColumnType into an error type and hide all drift.
  const diagnostics = ts.getPreEmitDiagnostics(program, source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  expect(diagnostics, "db/schema.ts must type-check on its own").toEqual([]);
  const checker = program.getTypeChecker();
  const database = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "Database");
  if (!database) throw new Error("db/schema.ts has no `interface Database`");
  const tables = new Map<string, Map<string, TsColumn>>();
  for (const table of checker.getPropertiesOfType(checker.getTypeAtLocation(database))) {
    const columns = new Map<string, TsColumn>();
    tables.set(table.getName(), columns);
    for (const column of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
      const type = checker.getTypeOfSymbol(column);
      const selectSymbol = type.getProperty("__select__");
      const insertSymbol = type.getProperty("__insert__");
      const select = selectSymbol ? checker.getTypeOfSymbol(selectSymbol) : type;
      const insert = insertSymbol ? checker.getTypeOfSymbol(insertSymbol) : type;
      const members = (t: ts.Type) => (t.isUnion() ? t.types : [t]);
      const selectMembers = members(select);
      columns.set(column.getName(), {
        select: checker.typeToString(select),
        insert: checker.typeToString(insert),
        nullable: selectMembers.some((t) => t.flags & ts.TypeFlags.Null),
        optionalOnInsert: members(insert).some((t) => t.flags & ts.TypeFlags.Undefined),
        kinds: selectMembers.filter((t) => !(t.flags & ts.TypeFlags.Null)).map((t) => classify(checker, t)),
      });
    }
  }
  return tables;
}

/** Every difference between the migrated database and db/schema.ts, one sentence naming table, column and both sides. */
function compare(database: Map<string, Map<string, DbColumn>>, schema: Map<string, Map<string, TsColumn>>): string[] {
  const problems: string[] = [];
  for (const table of database.keys()) if (!schema.has(table)) problems.push(`${table}: table is in the database but not in Database (db/schema.ts)`);
  for (const table of schema.keys()) if (!database.has(table)) problems.push(`${table}: table is in Database (db/schema.ts) but not in the migrated database`);
  for (const [table, dbColumns] of database) {
    const tsColumns = schema.get(table);
    if (!tsColumns) continue;
    for (const name of dbColumns.keys())
      if (!tsColumns.has(name)) problems.push(`${table}.${name}: column is in the database (${dbColumns.get(name)?.dataType}) but not in db/schema.ts`);
    for (const name of tsColumns.keys())
      if (!dbColumns.has(name)) problems.push(`${table}.${name}: column is in db/schema.ts (${tsColumns.get(name)?.select}) but not in the database`);
    for (const [name, column] of dbColumns) {
      const typed = tsColumns.get(name);
      if (!typed) continue;
      const at = `${table}.${name}`;
      if (column.nullable !== typed.nullable) {
        problems.push(
          `${at}: database says ${column.dataType} ${column.nullable ? "null" : "not null"}, db/schema.ts selects ${typed.select} (${typed.nullable ? "with" : "without"} null)`,
        );
      }
      if (!column.nullable && (column.default !== null) !== typed.optionalOnInsert) {
        problems.push(
          column.default !== null
            ? `${at}: database has default ${column.default}, db/schema.ts requires it on insert (${typed.insert}; use Generated<…> or a ColumnType whose insert type allows undefined)`
            : `${at}: database has no default and is not null, db/schema.ts lets an insert leave it out (${typed.insert})`,
        );
      }
      const expected = expectedKinds[column.dataType];
      if (!expected) {
        problems.push(`${at}: database type ${column.dataType} has no entry in this test's type map; add what postgres.js returns for it`);
      } else if (typed.kinds.length === 0 || typed.kinds.some((kind) => !expected.includes(kind))) {
        problems.push(`${at}: database type ${column.dataType} is read as ${expected.join(" | ")}, db/schema.ts selects ${typed.select}`);
      }
    }
  }
  return problems;
}

let db: DB;
beforeAll(async () => {
  db = createDb(await createOwnDatabase(), 2);
  await migrate(db);
});
afterAll(() => db?.destroy());

it("db/schema.ts has every table and column the migrations create, with matching nullability, defaults and types", async () => {
  const database = await readDatabase(db);
  expect(database.size, "the migrated database has tables").toBeGreaterThan(0);
  expect(compare(database, readSchemaTs())).toEqual([]);
});
