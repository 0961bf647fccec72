//! Lists over indexed records: the list planner's [`Source`] for one record kind, turning records
//! into list documents (their views) only as the planner asks for them.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::rc::Rc;

use serde_json::Value;

use crate::domain::Scope;
use crate::error::{ApiError, ApiResult};
use crate::query::{Pos, RangeKey, RangePos, Source};
use crate::storage::codec;
use crate::storage::ordered::Span;
use crate::storage::table::{self, Indexed, Position};
use crate::storage::{Direction, StoreError};

/// Every index is in creation order: the index of every record is the range index of `createdAt`.
const CREATED: &str = "createdAt";

/// The stored name of the range index `key` of kind `R` (a compound part's own name), if it has one.
fn range_index<R: Indexed>(key: &RangeKey) -> Option<String> {
    let index = table::range_index_of::<R>(&key.field)?;
    match &key.within {
        None => Some(index.to_string()),
        Some((field, value)) => table::compound_of::<R>(index, field)
            .then(|| crate::storage::keys::compound_range(index, field, value)),
    }
}

mod only;

pub use only::Only;

/// Makes records' list documents with only the given top-level fields, a chunk at a time (so
/// what they need beside the record can be read for the chunk at once), in the records' order.
type Projection<'c, 's, R> =
    Box<dyn FnMut(&mut Scope<'s>, Vec<R>, &[String]) -> ApiResult<Vec<Value>> + 'c>;

/// Decodes a stored record for a projection: only what the given top-level fields need.
type PartDecoder<R> = fn(&[u8], &[String]) -> Result<R, StoreError>;

/// Makes the document of the given top-level fields of a record known from a range entry's cover
/// (`Indexed::uncover`): those fields exactly as the view shows them.
type CoverView<'c, R> = Box<dyn FnMut(R, &[String]) -> ApiResult<Value> + 'c>;

/// The records of kind `R` of the scope's client; `view` makes a record's list document.
pub struct Records<'c, 's, R, F> {
    scope: &'c mut Scope<'s>,
    view: F,
    /// For passes over every record: a document of only the fields the query reads.
    only: Option<(PartDecoder<R>, Projection<'c, 's, R>)>,
    /// For walks over a kept range index whose entries carry `Indexed::COVERED`.
    cover: Option<CoverView<'c, R>>,
    /// The documents of some `Indexed::COVER_CLASS` fields (the first) made so far, by class.
    classes: (Vec<String>, HashMap<Vec<u8>, Rc<Value>>),
    kind: PhantomData<R>,
}

impl<'c, 's, R, F> Records<'c, 's, R, F>
where
    R: Indexed,
    F: FnMut(&mut Scope<'s>, R) -> ApiResult<Value>,
{
    pub fn new(scope: &'c mut Scope<'s>, view: F) -> Self {
        Records {
            scope,
            view,
            only: None,
            cover: None,
            classes: (Vec::new(), HashMap::new()),
            kind: PhantomData,
        }
    }

    /// Walks over a kept range index make each entry's document from its cover with `view` (a
    /// record with only `Indexed::COVERED` filled, the fields to give), which must give those
    /// fields exactly as the list view does.
    pub fn covered(mut self, view: impl FnMut(R, &[String]) -> ApiResult<Value> + 'c) -> Self {
        self.cover = Some(Box::new(view));
        self
    }

    /// Passes over every record decode each with `decode` (the stored bytes, the top-level
    /// fields to keep) and build their documents with `only` (a chunk of those records, the
    /// fields: a document per record, in order), which must give those fields exactly as `view`
    /// does.
    pub fn projected(
        mut self,
        decode: PartDecoder<R>,
        only: impl FnMut(&mut Scope<'s>, Vec<R>, &[String]) -> ApiResult<Vec<Value>> + 'c,
    ) -> Self {
        self.only = Some((decode, Box::new(only)));
        self
    }

    fn load(&mut self, id: &str) -> ApiResult<Option<(Pos, Value)>> {
        let Some(record) = table::get::<R>(self.scope.tx, self.scope.client, id)? else {
            return Ok(None);
        };
        let pos = Pos {
            created_ms: record.created_ms(),
            id: id.to_string(),
        };
        Ok(Some((pos, (self.view)(self.scope, record)?)))
    }
}

/// The next `n` records of kind `R` in creation order after `after`, each placed and made into its
/// document by `docs` (the whole view, or a projection of it), given the chunk.
fn scan_with<'s, R: Indexed>(
    scope: &mut Scope<'s>,
    after: Option<&str>,
    n: usize,
    decode: impl FnMut(&[u8]) -> Result<R, StoreError>,
    docs: impl FnOnce(&mut Scope<'s>, Vec<R>) -> ApiResult<Vec<Value>>,
) -> ApiResult<Vec<(Pos, Value)>> {
    let records = table::scan_decoded::<R>(scope.tx, scope.client, after, n, decode)?;
    let places: Vec<Pos> = records
        .iter()
        .map(|record| Pos {
            created_ms: record.created_ms(),
            id: record.id().to_string(),
        })
        .collect();
    let docs = docs(scope, records)?;
    if docs.len() != places.len() {
        return Err(ApiError::internal("a projection lost or added a record"));
    }
    Ok(places.into_iter().zip(docs).collect())
}

impl<'s, R, F> Source for Records<'_, 's, R, F>
where
    R: Indexed,
    F: FnMut(&mut Scope<'s>, R) -> ApiResult<Value>,
{
    fn indexed(&self) -> &'static [&'static str] {
        R::FIELDS
    }

    fn count(&mut self, field: &str, value: &str) -> ApiResult<u64> {
        Ok(table::count(
            self.scope.tx,
            self.scope.client,
            R::KIND,
            field,
            value,
        )?)
    }

    fn next(
        &mut self,
        field: &str,
        value: &str,
        desc: bool,
        after: Option<&Pos>,
        n: usize,
    ) -> ApiResult<Vec<(Pos, Value)>> {
        let found = self.positions(field, value, desc, after, n)?;
        let mut out = Vec::with_capacity(found.len());
        for p in found {
            // An index entry always has its record: both are written in one transaction.
            let row = self.load(&p.id)?.ok_or_else(|| {
                ApiError::internal(format!(
                    "an index entry points at a missing record {}",
                    p.id
                ))
            })?;
            out.push(row);
        }
        Ok(out)
    }

    fn positions(
        &mut self,
        field: &str,
        value: &str,
        desc: bool,
        after: Option<&Pos>,
        n: usize,
    ) -> ApiResult<Vec<Pos>> {
        let dir = Direction::descending(desc);
        let after = after.map(|p| Position {
            created_ms: p.created_ms,
            id: p.id.clone(),
        });
        let found = table::positions(
            self.scope.tx,
            self.scope.client,
            R::KIND,
            (field, value),
            dir,
            after.as_ref(),
            n,
        )?;
        Ok(found
            .into_iter()
            .map(|p| Pos {
                created_ms: p.created_ms,
                id: p.id,
            })
            .collect())
    }

    fn find(&mut self, id: &str) -> ApiResult<Option<(Pos, Value)>> {
        self.load(id)
    }

    fn texts(&self) -> &'static [&'static str] {
        R::TEXTS
    }

    fn digits(&self, field: &str) -> Option<u32> {
        R::DIGITS.iter().find(|(f, _)| *f == field).map(|(_, n)| *n)
    }

    fn ranged(&self, field: &str) -> bool {
        field == CREATED || table::range_index_of::<R>(field).is_some()
    }

    fn compound(&self, field: &str, eq: &str) -> bool {
        table::range_index_of::<R>(field).is_some_and(|index| table::compound_of::<R>(index, eq))
    }

    fn range_count(&mut self, key: &RangeKey, span: &Span) -> ApiResult<Option<u64>> {
        let Some(index) = range_index::<R>(key) else {
            return Ok(None);
        };
        let (tx, client) = (&mut *self.scope.tx, self.scope.client);
        Ok(Some(table::range_count(tx, client, R::KIND, &index, span)?))
    }

    fn stale(&mut self, key: &RangeKey) -> ApiResult<Vec<RangePos>> {
        let Some(index) = table::range_index_of::<R>(&key.field) else {
            return Ok(Vec::new());
        };
        if !R::KEPT_RANGES.iter().any(|(name, _)| *name == index) {
            return Ok(Vec::new());
        }
        let now = self.scope.now.millis();
        let (tx, client) = (&mut *self.scope.tx, self.scope.client);
        let mut stale = R::stale(tx, client, index, now)?;
        // A compound part holds only the records of its value.
        if let Some((field, value)) = &key.within {
            let mut kept = Vec::with_capacity(stale.len());
            for p in stale {
                let record = table::get::<R>(tx, client, &p.id)?;
                if record.is_some_and(|r| table::index_value(&r, field) == Some(value.as_str())) {
                    kept.push(p);
                }
            }
            stale = kept;
        }
        Ok(stale)
    }

    fn range_positions(
        &mut self,
        key: &RangeKey,
        span: &Span,
        desc: bool,
        after: Option<&RangePos>,
        n: usize,
    ) -> ApiResult<Vec<RangePos>> {
        let dir = Direction::descending(desc);
        if key.field == CREATED && key.within.is_none() {
            let (tx, client) = (&mut *self.scope.tx, self.scope.client);
            return Ok(table::created_positions(
                tx,
                client,
                R::KIND,
                span,
                dir,
                after,
                n,
            )?);
        }
        let Some(index) = range_index::<R>(key) else {
            return Ok(Vec::new());
        };
        Ok(table::range_positions(
            self.scope.tx,
            self.scope.client,
            R::KIND,
            &index,
            span,
            dir,
            after,
            n,
        )?)
    }

    fn covered(&self, key: &RangeKey) -> &'static [&'static str] {
        let kept = table::range_index_of::<R>(&key.field)
            .is_some_and(|index| R::KEPT_RANGES.iter().any(|(name, _)| *name == index));
        match self.cover.is_some() && kept {
            true => R::COVERED,
            false => &[],
        }
    }

    fn range_docs(
        &mut self,
        key: &RangeKey,
        span: &Span,
        (desc, after, n): (bool, Option<&RangePos>, usize),
        fields: &[String],
    ) -> ApiResult<Vec<(RangePos, Option<Rc<Value>>)>> {
        let Some(index) = range_index::<R>(key) else {
            return Ok(Vec::new());
        };
        let dir = Direction::descending(desc);
        let (tx, client) = (&mut *self.scope.tx, self.scope.client);
        let rows = table::range_entries(tx, client, (R::KIND, &index), span, dir, after, n)?;
        let covers = !Source::covered(self, key).is_empty();
        // Fields of the class alone: one document per distinct class (a handful), shared.
        let by_class = fields.iter().all(|f| R::COVER_CLASS.contains(&f.as_str()));
        if by_class && self.classes.0 != fields {
            self.classes = (fields.to_vec(), HashMap::new());
        }
        let mut out = Vec::with_capacity(rows.len());
        for (p, cover) in rows {
            let Some(view) = self.cover.as_mut().filter(|_| covers && !cover.is_empty()) else {
                // An entry written before covers (none after the format-9 upgrade) is read whole.
                out.push((p, None));
                continue;
            };
            let class = R::cover_class(&cover).filter(|_| by_class);
            let known = class.and_then(|c| self.classes.1.get(c));
            let doc = match known {
                Some(doc) => Rc::clone(doc),
                None => {
                    let doc = Rc::new(view(R::uncover(&p.id, &cover)?, fields)?);
                    if let Some(c) = class {
                        self.classes.1.insert(c.to_vec(), Rc::clone(&doc));
                    }
                    doc
                }
            };
            out.push((p, Some(doc)));
        }
        Ok(out)
    }

    fn scan(&mut self, after: Option<&str>, n: usize) -> ApiResult<Vec<(Pos, Value)>> {
        let view = &mut self.view;
        scan_with(self.scope, after, n, codec::decode, |scope, records| {
            records.into_iter().map(|r| view(scope, r)).collect()
        })
    }

    fn scan_only(
        &mut self,
        after: Option<&str>,
        n: usize,
        fields: &[String],
    ) -> ApiResult<Vec<(Pos, Value)>> {
        let Some((decode, only)) = self.only.as_mut() else {
            return self.scan(after, n);
        };
        let decode = *decode;
        scan_with(
            self.scope,
            after,
            n,
            |bytes| decode(bytes, fields),
            |scope, records| only(scope, records, fields),
        )
    }
}
