//! Projection (`fields`): keeps `_id` and the selected paths; a dot path keeps only that part of a
//! nested object.

use serde_json::{Map, Value};

use super::ListQuery;

/// Keeps `_id` and the dot paths in `fields` of `doc`, in the document's own key order. Through
/// arrays of objects a path applies to each element.
pub fn project_fields(doc: Value, fields: &[String]) -> Value {
    let Value::Object(map) = doc else {
        return doc;
    };
    let mut tree = Tree::default();
    tree.insert("_id");
    for f in fields {
        tree.insert(f);
    }
    Value::Object(tree.apply(map))
}

#[derive(Default)]
struct Tree {
    /// The whole value at this node is kept.
    whole: bool,
    children: Vec<(String, Tree)>,
}

impl Tree {
    fn insert(&mut self, path: &str) {
        let mut node = self;
        for segment in path.split('.') {
            let i = match node.children.iter().position(|(k, _)| k == segment) {
                Some(i) => i,
                None => {
                    node.children.push((segment.to_string(), Tree::default()));
                    node.children.len() - 1
                }
            };
            node = &mut node.children[i].1;
        }
        node.whole = true;
    }

    fn apply(&self, map: Map<String, Value>) -> Map<String, Value> {
        map.into_iter()
            .filter_map(|(k, v)| {
                let node = &self.children.iter().find(|(name, _)| *name == k)?.1;
                node.keep(v).map(|v| (k, v))
            })
            .collect()
    }

    fn keep(&self, v: Value) -> Option<Value> {
        if self.whole {
            return Some(v);
        }
        match v {
            Value::Object(map) => Some(Value::Object(self.apply(map))),
            Value::Array(items) => Some(Value::Array(
                items.into_iter().filter_map(|x| self.keep(x)).collect(),
            )),
            // A path below a scalar selects nothing.
            _ => None,
        }
    }
}

impl ListQuery {
    /// Applies `fields` to one document; embedded (populated) relations are always kept.
    /// Without `fields` the document is returned unchanged.
    pub fn project(&self, doc: Value) -> Value {
        match &self.fields {
            None => doc,
            Some(fields) => {
                let mut all = fields.clone();
                all.extend(self.populate.iter().map(|p| p.name.clone()));
                project_fields(doc, &all)
            }
        }
    }
}
