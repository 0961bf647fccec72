//! `spin:postgres/postgres@3.0.0` over tokio-postgres: one real PostgreSQL connection per guest
//! `connection` resource, closed when the guest drops it (or its store is dropped, which rolls back a
//! transaction a trapped guest left open).
//!
//! Errors reach the guest as Spin reports them: a failed query is `query-failed` with tokio-postgres's
//! `Debug` text, which carries the SQLSTATE (`code: SqlState(E40001)`), so the guest can tell a
//! serialization failure from other errors. Parameters and columns of the types the card component
//! uses are mapped (bool, the integers, floats, text, bytea, null); date and time types are not.
//! No outbound-host policy is applied (Spin checks `allowed_outbound_hosts`), and there is no TLS.
//!
//! Strict by default: a query that returns no rows traps the guest, because Spin 4.0.0 to 4.0.2
//! never return from one (spinframework/spin#3671) and a component that sends one hangs there.
//! `--pg-allow-empty` answers it, as Spin 4.0.3 and later do.

use bytes::BytesMut;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use tokio_postgres::{NoTls, Row, Statement};
use wasmtime::component::Resource;

use crate::State;
use crate::bindings::spin::postgres::postgres::{
    self as pg, Column, DbDataType, DbValue, Error, ParameterValue, RowSet,
};

/// The host side of a guest's `connection`.
pub struct PgConnection {
    client: tokio_postgres::Client,
}

impl pg::Host for State {}

impl pg::HostConnection for State {
    async fn open(
        &mut self,
        address: String,
    ) -> wasmtime::Result<Result<Resource<PgConnection>, Error>> {
        let (client, connection) = match tokio_postgres::connect(&address, NoTls).await {
            Ok(pair) => pair,
            Err(e) => return Ok(Err(Error::ConnectionFailed(format!("{e:?}")))),
        };
        // The connection task ends when the client is dropped.
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                eprintln!("spin-test-host: PostgreSQL connection ended: {e}");
            }
        });
        Ok(Ok(self.table.push(PgConnection { client })?))
    }

    async fn query(
        &mut self,
        conn: Resource<PgConnection>,
        statement: String,
        params: Vec<ParameterValue>,
    ) -> wasmtime::Result<Result<RowSet, Error>> {
        let client = &self.table.get(&conn)?.client;
        let result = query(client, &statement, params).await;
        if self.shared.pg_strict && matches!(&result, Ok(set) if set.rows.is_empty()) {
            // Spin 4.0.0 to 4.0.2 never answer this (spinframework/spin#3671): fail loudly instead.
            eprintln!(
                "spin-test-host: STRICT: a spin:postgres query returned no rows: {statement}"
            );
            return Err(wasmtime::Error::msg(format!(
                "strict mode: a spin:postgres query returned no rows, which Spin 4.0.0 to 4.0.2 \
                 never answer (spinframework/spin#3671): {statement}"
            )));
        }
        Ok(result)
    }

    async fn execute(
        &mut self,
        conn: Resource<PgConnection>,
        statement: String,
        params: Vec<ParameterValue>,
    ) -> wasmtime::Result<Result<u64, Error>> {
        let client = &self.table.get(&conn)?.client;
        let params = match to_sql(params) {
            Ok(params) => params,
            Err(e) => return Ok(Err(e)),
        };
        Ok(client
            .execute(statement.as_str(), &refs(&params))
            .await
            .map_err(query_failed))
    }

    async fn drop(&mut self, conn: Resource<PgConnection>) -> wasmtime::Result<()> {
        self.table.delete(conn)?;
        Ok(())
    }
}

async fn query(
    client: &tokio_postgres::Client,
    statement: &str,
    params: Vec<ParameterValue>,
) -> Result<RowSet, Error> {
    let params = to_sql(params)?;
    // Prepared first, so the columns are known even when no row comes back.
    let stmt: Statement = client.prepare(statement).await.map_err(query_failed)?;
    let rows = client
        .query(&stmt, &refs(&params))
        .await
        .map_err(query_failed)?;
    let columns = stmt
        .columns()
        .iter()
        .map(|c| Column {
            name: c.name().to_string(),
            data_type: data_type(c.type_()),
        })
        .collect();
    let rows = rows.iter().map(row).collect::<Result<_, _>>()?;
    Ok(RowSet { columns, rows })
}

/// Spin's wording: the error's `Debug` form, which includes the SQLSTATE of a database error.
fn query_failed(e: tokio_postgres::Error) -> Error {
    Error::QueryFailed(format!("{e:?}"))
}

type Param = Box<dyn ToSql + Sync + Send>;

fn refs(params: &[Param]) -> Vec<&(dyn ToSql + Sync)> {
    params
        .iter()
        .map(|p| p.as_ref() as &(dyn ToSql + Sync))
        .collect()
}

fn to_sql(params: Vec<ParameterValue>) -> Result<Vec<Param>, Error> {
    params
        .into_iter()
        .map(|p| -> Result<Param, Error> {
            Ok(match p {
                ParameterValue::Boolean(v) => Box::new(v),
                ParameterValue::Int8(v) => Box::new(v),
                ParameterValue::Int16(v) => Box::new(v),
                ParameterValue::Int32(v) => Box::new(v),
                ParameterValue::Int64(v) => Box::new(v),
                ParameterValue::Floating32(v) => Box::new(v),
                ParameterValue::Floating64(v) => Box::new(v),
                ParameterValue::Str(v) => Box::new(v),
                ParameterValue::Binary(v) => Box::new(v),
                ParameterValue::DbNull => Box::new(Null),
                other => {
                    return Err(Error::BadParameter(format!(
                        "spin-test-host does not map {other:?}"
                    )));
                }
            })
        })
        .collect()
}

/// SQL NULL for a parameter of any type.
#[derive(Debug)]
struct Null;

impl ToSql for Null {
    fn to_sql(
        &self,
        _ty: &Type,
        _out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        Ok(IsNull::Yes)
    }

    fn accepts(_ty: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

fn data_type(ty: &Type) -> DbDataType {
    match *ty {
        Type::BOOL => DbDataType::Boolean,
        Type::CHAR => DbDataType::Int8,
        Type::INT2 => DbDataType::Int16,
        Type::INT4 => DbDataType::Int32,
        Type::INT8 => DbDataType::Int64,
        Type::FLOAT4 => DbDataType::Floating32,
        Type::FLOAT8 => DbDataType::Floating64,
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => DbDataType::Str,
        Type::BYTEA => DbDataType::Binary,
        _ => DbDataType::Other,
    }
}

fn row(row: &Row) -> Result<Vec<DbValue>, Error> {
    (0..row.len())
        .map(|i| {
            fn get<'a, T: tokio_postgres::types::FromSql<'a>>(
                row: &'a Row,
                i: usize,
                wrap: impl FnOnce(T) -> DbValue,
            ) -> Result<DbValue, Error> {
                row.try_get::<_, Option<T>>(i)
                    .map(|v| v.map_or(DbValue::DbNull, wrap))
                    .map_err(|e| Error::ValueConversionFailed(format!("{e:?}")))
            }
            match *row.columns()[i].type_() {
                Type::BOOL => get(row, i, DbValue::Boolean),
                Type::CHAR => get(row, i, DbValue::Int8),
                Type::INT2 => get(row, i, DbValue::Int16),
                Type::INT4 => get(row, i, DbValue::Int32),
                Type::INT8 => get(row, i, DbValue::Int64),
                Type::FLOAT4 => get(row, i, DbValue::Floating32),
                Type::FLOAT8 => get(row, i, DbValue::Floating64),
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => get(row, i, DbValue::Str),
                Type::BYTEA => get(row, i, DbValue::Binary),
                _ => Ok(DbValue::Unsupported),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use acceptance::pg_cluster::PgCluster;
    use host_wasm::pg as sql;
    use pg::HostConnection as _;
    use std::collections::HashMap;
    use std::path::PathBuf;
    use std::sync::Arc;
    use wasmtime::component::ResourceTable;
    use wasmtime_wasi::WasiCtx;
    use wasmtime_wasi_http::WasiHttpCtx;

    fn state() -> State {
        state_with(false)
    }

    fn state_with(pg_strict: bool) -> State {
        State {
            table: ResourceTable::new(),
            wasi: WasiCtx::builder().build(),
            http: WasiHttpCtx::new(),
            hooks: Default::default(),
            shared: Arc::new(crate::Shared {
                db_path: PathBuf::from("unused"),
                variables: HashMap::new(),
                pg_strict,
            }),
        }
    }

    /// The guest's handle again (the test plays the guest, which passes its handle on every call).
    fn again(conn: &Resource<PgConnection>) -> Resource<PgConnection> {
        Resource::new_own(conn.rep())
    }

    fn bin(b: &[u8]) -> ParameterValue {
        ParameterValue::Binary(b.to_vec())
    }

    async fn exec(
        s: &mut State,
        c: &Resource<PgConnection>,
        statement: &str,
        params: Vec<ParameterValue>,
    ) {
        s.execute(again(c), statement.into(), params)
            .await
            .unwrap()
            .unwrap_or_else(|e| panic!("{statement}: {e:?}"));
    }

    async fn keys(
        s: &mut State,
        c: &Resource<PgConnection>,
        statement: &str,
        limit: i64,
    ) -> Vec<Vec<u8>> {
        let set = s
            .query(
                again(c),
                statement.into(),
                vec![bin(b"a"), bin(b"b"), ParameterValue::Int64(limit)],
            )
            .await
            .unwrap()
            .unwrap();
        set.rows
            .into_iter()
            .map(|r| match &r[0] {
                DbValue::Binary(b) => b.clone(),
                other => panic!("not bytea: {other:?}"),
            })
            .collect()
    }

    /// The components' own statements (host_wasm::pg): bytea keys in byte order both ways, upsert,
    /// delete, and the column types and NULLs the guest sees.
    #[tokio::test(flavor = "multi_thread")]
    async fn the_shared_statements_run_over_a_real_connection() {
        let cluster = PgCluster::start(&["fsync=off"]);
        let url = cluster.create_database();
        let mut s = state();
        let c = s.open(url).await.unwrap().unwrap();
        for statement in sql::SCHEMA {
            exec(&mut s, &c, statement, vec![]).await;
        }
        for k in [&b"a"[..], b"a\x00", b"a\xff", b"b", b"\x00"] {
            exec(&mut s, &c, sql::PUT, vec![bin(k), bin(b"v")]).await;
        }
        assert_eq!(
            keys(&mut s, &c, sql::SCAN_FORWARD, 100).await,
            vec![b"a".to_vec(), b"a\x00".to_vec(), b"a\xff".to_vec()]
        );
        assert_eq!(
            keys(&mut s, &c, sql::SCAN_REVERSE, 2).await,
            vec![b"a\xff".to_vec(), b"a\x00".to_vec()]
        );
        exec(&mut s, &c, sql::PUT, vec![bin(b"b"), bin(b"v2")]).await;
        let got = s
            .query(again(&c), sql::GET.into(), vec![bin(b"b")])
            .await
            .unwrap()
            .unwrap();
        assert_eq!(got.columns[0].name, "v");
        assert!(matches!(got.columns[0].data_type, DbDataType::Binary));
        assert!(matches!(&got.rows[0][0], DbValue::Binary(v) if v == b"v2"));
        exec(&mut s, &c, sql::DELETE, vec![bin(b"b")]).await;
        let gone = s
            .query(again(&c), sql::GET.into(), vec![bin(b"b")])
            .await
            .unwrap()
            .unwrap();
        assert!(gone.rows.is_empty());
        assert_eq!(gone.columns.len(), 1, "columns are known without rows");

        let mixed = s
            .query(
                again(&c),
                "SELECT $1::bytea, $2::bigint, $3::text, 7::integer".into(),
                vec![
                    ParameterValue::DbNull,
                    ParameterValue::Int64(-5),
                    ParameterValue::Str("x".into()),
                ],
            )
            .await
            .unwrap()
            .unwrap();
        assert!(matches!(
            mixed.rows[0][..],
            [DbValue::DbNull, DbValue::Int64(-5), DbValue::Str(ref t), DbValue::Int32(7)] if t == "x"
        ));
        s.drop(c).await.unwrap();
        assert!(s.table.is_empty(), "the connection is gone with its handle");
    }

    /// A write skew between two SERIALIZABLE transactions: the second COMMIT fails, and the guest
    /// can tell from the error text that it was a serialization failure (SQLSTATE 40001).
    #[tokio::test(flavor = "multi_thread")]
    async fn a_serialization_failure_reaches_the_guest_with_its_sqlstate() {
        let cluster = PgCluster::start(&["fsync=off"]);
        let url = cluster.create_database();
        let mut s = state();
        let (a, b) = (
            s.open(url.clone()).await.unwrap().unwrap(),
            s.open(url).await.unwrap().unwrap(),
        );
        for statement in sql::SCHEMA {
            exec(&mut s, &a, statement, vec![]).await;
        }
        exec(&mut s, &a, sql::PUT, vec![bin(b"x"), bin(b"0")]).await;
        exec(&mut s, &a, sql::PUT, vec![bin(b"y"), bin(b"0")]).await;
        exec(&mut s, &a, sql::BEGIN_WRITE, vec![]).await;
        exec(&mut s, &b, sql::BEGIN_WRITE, vec![]).await;
        for (c, read) in [(&a, b"x"), (&b, b"y")] {
            s.query(again(c), sql::GET.into(), vec![bin(read)])
                .await
                .unwrap()
                .unwrap();
        }
        exec(&mut s, &a, sql::PUT, vec![bin(b"y"), bin(b"1")]).await;
        exec(&mut s, &b, sql::PUT, vec![bin(b"x"), bin(b"1")]).await;
        exec(&mut s, &a, sql::COMMIT, vec![]).await;
        let err = s
            .execute(again(&b), sql::COMMIT.into(), vec![])
            .await
            .unwrap()
            .unwrap_err();
        let Error::QueryFailed(text) = err else {
            panic!("not a query error: {err:?}")
        };
        assert!(sql::is_conflict(&text), "{text}");

        // Other errors are not conflicts, and a missing table is recognisable.
        let err = s
            .query(again(&a), "SELECT 1 FROM nowhere".into(), vec![])
            .await
            .unwrap()
            .unwrap_err();
        let Error::QueryFailed(text) = err else {
            panic!("not a query error: {err:?}")
        };
        assert!(
            !sql::is_conflict(&text) && sql::is_undefined_table(&text),
            "{text}"
        );
    }

    /// Strict mode fails a statement written the old way (a point read of a missing key, a scan of
    /// an empty range) and passes the one-row and sentinel statements the component sends.
    #[tokio::test(flavor = "multi_thread")]
    async fn strict_mode_traps_on_an_empty_result_and_the_components_statements_never_give_one() {
        let cluster = PgCluster::start(&["fsync=off"]);
        let url = cluster.create_database();
        let mut s = state_with(true);
        let c = s.open(url).await.unwrap().unwrap();
        for statement in sql::SCHEMA {
            exec(&mut s, &c, statement, vec![]).await;
        }
        let range = || vec![bin(b"a"), bin(b"b"), ParameterValue::Int64(10)];
        for (old, params) in [
            (sql::GET, vec![bin(b"missing")]),
            (sql::SCAN_FORWARD, range()),
            (sql::SCAN_REVERSE, range()),
        ] {
            let trap = s
                .query(again(&c), old.into(), params)
                .await
                .expect_err("strict mode traps on zero rows");
            assert!(trap.to_string().contains("returned no rows"), "{trap}");
        }
        let get = s
            .query(again(&c), sql::GET_ONE_ROW.into(), vec![bin(b"missing")])
            .await
            .unwrap()
            .unwrap();
        assert!(matches!(&get.rows[..], [row] if matches!(row[..], [DbValue::DbNull])));
        exec(&mut s, &c, sql::PUT, vec![bin(b"a\x01"), bin(b"1")]).await;
        exec(&mut s, &c, sql::PUT, vec![bin(b"a\x02"), bin(b"2")]).await;
        // Empty ranges give the sentinel alone; full ones keep their order and limit.
        let a1 = || DbValue::Binary(b"a\x01".to_vec());
        let a2 = || DbValue::Binary(b"a\x02".to_vec());
        for (statement, start, end, limit, want) in [
            (
                sql::SCAN_FORWARD_SENTINEL,
                &b"b"[..],
                &b"c"[..],
                10,
                vec![DbValue::DbNull],
            ),
            (
                sql::SCAN_REVERSE_SENTINEL,
                b"b",
                b"c",
                10,
                vec![DbValue::DbNull],
            ),
            (sql::SCAN_FORWARD_SENTINEL, b"a", b"b", 10, vec![a1(), a2()]),
            (sql::SCAN_REVERSE_SENTINEL, b"a", b"b", 10, vec![a2(), a1()]),
            (sql::SCAN_FORWARD_SENTINEL, b"a", b"b", 1, vec![a1()]),
            (sql::SCAN_REVERSE_SENTINEL, b"a", b"b", 1, vec![a2()]),
        ] {
            let set = s
                .query(
                    again(&c),
                    statement.into(),
                    vec![bin(start), bin(end), ParameterValue::Int64(limit)],
                )
                .await
                .unwrap()
                .unwrap();
            let keys: Vec<DbValue> = set.rows.into_iter().map(|r| r[0].clone()).collect();
            assert_eq!(
                format!("{keys:?}"),
                format!("{want:?}"),
                "{statement} {limit}"
            );
        }
        // The schema version read is an aggregate: one row on an empty table.
        let version = s
            .query(again(&c), sql::SCHEMA_VERSION_READ.into(), vec![])
            .await
            .unwrap()
            .unwrap();
        assert!(matches!(&version.rows[..], [row] if matches!(row[..], [DbValue::DbNull])));
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_bad_address_is_a_connection_error() {
        let mut s = state();
        let r = s
            .open("postgres://nobody@127.0.0.1:1/none".into())
            .await
            .unwrap();
        assert!(matches!(r, Err(Error::ConnectionFailed(_))));
    }
}
