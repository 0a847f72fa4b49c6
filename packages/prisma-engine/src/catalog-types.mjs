/**
 * Catalog column types between pg, adapter-pg and the Wasm schema engine.
 *
 * The engine's introspection queries read two PostgreSQL catalog types that adapter-pg rejects
 * ("Column type … could not be deserialized", prisma/orm#27403): `"char"` (oid 18, e.g.
 * pg_constraint.contype) and `name` (oid 19). The native engine reads `name` as text and `"char"` as a
 * character, and the describer relies on the latter: it reads `contype` with `get_expect_char`, which
 * panics on a text value ("Getting constraint_type … as char failed") as soon as the described schema
 * has a CHECK or EXCLUDE constraint. So both types are relabelled as text for adapter-pg to accept them,
 * and the `"char"` columns are then handed to the engine as `Character`, as the native engine does.
 */
import { ColumnTypeEnum } from "@prisma/driver-adapter-utils";
import pg from "pg";

const CHAR_OID = 18;
const NAME_OID = 19;
const TEXT_OID = 25;

/** A pg result's rows → the indexes of its `"char"` columns (the rows array is what adapter-pg passes on). */
const charColumnsByRows = new WeakMap();

/** Relabels `"char"`/`name` columns as text, remembering which ones were `"char"`. */
function relabelCatalogTypes(result) {
  for (const one of Array.isArray(result) ? result : [result]) {
    const charColumns = [];
    (one?.fields ?? []).forEach((field, index) => {
      if (field.dataTypeID === CHAR_OID) charColumns.push(index);
      if (field.dataTypeID === CHAR_OID || field.dataTypeID === NAME_OID) field.dataTypeID = TEXT_OID;
    });
    if (charColumns.length > 0 && Array.isArray(one.rows)) charColumnsByRows.set(one.rows, charColumns);
  }
  return result;
}

/** A pg client whose results adapter-pg can read: `"char"`/`name` columns relabelled as text. */
export class CatalogAwareClient extends pg.Client {
  query(config, values, callback) {
    if (typeof values === "function") [values, callback] = [undefined, values];
    if (typeof callback === "function") {
      return super.query(config, values, (err, res) => callback(err, err ? res : relabelCatalogTypes(res)));
    }
    const pending = super.query(config, values);
    return typeof pending?.then === "function" ? pending.then(relabelCatalogTypes) : pending;
  }
}

/**
 * Makes an adapter-pg adapter (on a pool of CatalogAwareClient) report `"char"` columns as `Character`,
 * in its own results and in those of the transactions it starts.
 */
export function reportCharColumns(adapter) {
  withCharColumns(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...args) => withCharColumns(await startTransaction(...args));
  return adapter;
}

function withCharColumns(queryable) {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumnsByRows.get(result.rows) ?? []) result.columnTypes[index] = ColumnTypeEnum.Character;
    return result;
  };
  return queryable;
}
