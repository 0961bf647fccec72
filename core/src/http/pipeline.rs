//! The request pipeline every route runs through, in stages (ARCHITECTURE.md, "Request stages"):
//! the route matched and the key authenticated once, by `Service::precheck`; the body parsed once
//! into its command ([`validate`]); then [`handle`]: authorization, idempotency, the write overlay,
//! the handler, and a commit only when the handler returned `Ok`.

use std::borrow::Cow;

use super::handlers::{Call, Command};
use super::routes::{Access, Auth, Prepared};
use super::{Method, Request, Response, auth, errors, idempotency};
use crate::callout::CallOut;
use crate::config::Config;
use crate::domain::api_keys::KeyInfo;
use crate::domain::audit::{self, Actor, AuditAction};
use crate::domain::{IdGen, Scope};
use crate::env::Env;
use crate::env::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::storage::{Overlay, Tx};

/// A request past `Service::precheck` (and maybe `Service::validate`): what the pipeline needs of
/// the earlier stages. `key` is the key precheck authenticated (None only on public routes);
/// `command` the body as the route's check parsed it (None when validate did not parse it).
#[derive(Clone, Copy)]
pub struct Stage<'a> {
    pub prepared: &'a Prepared,
    pub req: &'a Request,
    pub key: Option<&'a KeyInfo>,
    pub command: Option<&'a Command>,
}

impl<'a> Stage<'a> {
    fn call<'t>(
        &self,
        config: &'t Config,
        scope: Scope<'t>,
        key: Option<&'t KeyInfo>,
        command: Option<&'t Command>,
    ) -> Call<'t>
    where
        'a: 't,
    {
        Call {
            req: self.req,
            route: self.prepared,
            config,
            key,
            command: command.map(|c| &**c),
            scope,
        }
    }
}

pub fn handle(
    config: &Config,
    ids: &IdGen,
    stage: Stage,
    tx: &mut dyn Tx,
    env: &dyn Env,
) -> Response {
    run(config, ids, stage, tx, env).unwrap_or_else(|e| errors::to_response(&e))
}

/// Parses and judges a write's body with its route's check (`Route::check`) on a read-only `tx`,
/// for a request that passed `Service::precheck`: `Err` is the answer `handle` would give, `Ok`
/// the command `handle` runs (None: the route takes no body, or its Idempotency-Key decides the
/// answer, so the body is not looked at).
pub fn validate(
    config: &Config,
    ids: &IdGen,
    stage: Stage,
    tx: &mut dyn Tx,
    env: &dyn Env,
) -> ApiResult<Option<Command>> {
    let route = stage.prepared.route()?;
    let Some(check) = route.check else {
        return Ok(None);
    };
    let client = stage.key.map_or("", |k| k.client.as_str());
    let now = crate::domain::test_clock::now(tx, client, env)?;
    // A replayed or conflicting key is answered by `handle` before the body is looked at.
    if stage.req.method == Method::Post && idempotency::decides(stage.req, client, now, tx)? {
        return Ok(None);
    }
    let scope = Scope {
        tx,
        client,
        now,
        ids,
        env,
    };
    check(&mut stage.call(config, scope, stage.key, None)).map(Some)
}

/// Runs a route's ask (`Route::ask`) on a read-only `tx` for a validated request: the call-out the
/// host should perform before the write, or None (the route asks nothing, the request is replayed
/// or refused anyway, or there is nothing to ask). Whatever the ask writes stays in an overlay that
/// is dropped.
pub fn ask(
    config: &Config,
    ids: &IdGen,
    stage: Stage,
    tx: &mut dyn Tx,
    env: &dyn Env,
) -> ApiResult<Option<CallOut>> {
    let route = stage.prepared.route()?;
    let Some(ask) = route.ask else {
        return Ok(None);
    };
    // Validate parsed no body: its Idempotency-Key decides the answer, so nothing is asked.
    if route.check.is_some() && stage.command.is_none() {
        return Ok(None);
    }
    let client = stage.key.map_or("", |k| k.client.as_str());
    let now = crate::domain::test_clock::now(tx, client, env)?;
    // A replay answers from its record, and a conflicting key is refused: neither asks.
    if stage.req.method == Method::Post && idempotency::decides(stage.req, client, now, tx)? {
        return Ok(None);
    }
    let mut overlay = Overlay::new(tx);
    let scope = Scope {
        tx: &mut overlay,
        client,
        now,
        ids,
        env,
    };
    ask(&mut stage.call(config, scope, stage.key, stage.command))
}

fn run(
    config: &Config,
    ids: &IdGen,
    stage: Stage,
    tx: &mut dyn Tx,
    env: &dyn Env,
) -> ApiResult<Response> {
    let (prepared, req) = (stage.prepared, stage.req);
    let route = prepared.route()?;
    let key: Option<Cow<KeyInfo>> = match (route.auth, stage.key) {
        (Auth::Public, _) => None,
        // A write checks its key once more, in its own transaction: precheck read it on a
        // snapshot, and a key revoked since must not write (ARCHITECTURE.md, "Request stages").
        (Auth::Key, Some(key)) if route.access == Access::Write => {
            Some(Cow::Owned(auth::recheck(req, key, &config.api_keys, tx)?))
        }
        // A read runs on the snapshot precheck authenticated on, or a later one.
        (Auth::Key, Some(key)) => Some(Cow::Borrowed(key)),
        // Only precheck makes a stage, and it authenticates every key route.
        (Auth::Key, None) => return Err(ApiError::Unauthorized),
    };
    let key = key.as_deref();
    let client = key.map(|k| k.client.clone()).unwrap_or_default();
    // The client's clock (the host's plus its test-clock offset): every rule reads this instant.
    let host_now = env.now();
    let now = match route.auth {
        Auth::Key => host_now.plus_seconds(crate::domain::test_clock::offset(tx, &client)?),
        Auth::Public => host_now,
    };
    let audited = match (key, prepared.audit_action()) {
        (Some(key), Some(action)) => Some((auth::actor(req, key), action)),
        _ => None,
    };
    if let Some(key) = key
        && let Err(e) = auth::authorize(key, prepared.need())
    {
        // A refused token or reveal is recorded all the same (nothing else is written).
        if let Some((actor, action)) = &audited {
            record_refusal(
                config, ids, tx, env, &client, now, actor, *action, prepared, &e,
            )?;
        }
        return Err(e);
    }
    if route.access == Access::Write {
        idempotency::sweep(tx, host_now)?;
    }
    let claim = if req.method == Method::Post {
        match idempotency::Claim::check(req, &client, now, tx)? {
            Some(idempotency::Claim::Replay(response)) => return Ok(response),
            Some(idempotency::Claim::Fresh(fresh)) => Some(fresh),
            None => None,
        }
    } else {
        None
    };

    // A write reads some keys twice (a record, then again to move its index entries).
    let mut overlay = match route.access {
        Access::Write => Overlay::remembering_reads(tx),
        Access::Read => Overlay::new(tx),
    };
    let stored_ids = if config.stored_ids {
        Some(IdGen::load(&mut overlay, env)?)
    } else {
        None
    };
    let ids = stored_ids.as_ref().unwrap_or(ids);
    let counter_before = ids.counter();
    let result = 'handled: {
        // The body's command: validate's, or parsed here when validate did not run or left it to
        // the Idempotency-Key (one that decided on validate's snapshot but not on this transaction).
        let parsed = match (stage.command, route.check) {
            (None, Some(check)) => {
                let scope = Scope {
                    tx: &mut overlay,
                    client: &client,
                    now,
                    ids,
                    env,
                };
                match check(&mut stage.call(config, scope, key, None)) {
                    Ok(command) => Some(command),
                    Err(e) => break 'handled Err(e),
                }
            }
            _ => None,
        };
        let command = stage.command.or(parsed.as_ref());
        let scope = Scope {
            tx: &mut overlay,
            client: &client,
            now,
            ids,
            env,
        };
        (route.handler)(&mut stage.call(config, scope, key, command))
    };
    let response = match result {
        Ok(response) => {
            if let Some((actor, action)) = &audited {
                let mut scope = Scope {
                    tx: &mut overlay,
                    client: &client,
                    now,
                    ids,
                    env,
                };
                audit::append(&mut scope, actor, *action, Ok(()), Some(&prepared.id), None)?;
            }
            if stored_ids.is_some() && ids.counter() != counter_before {
                ids.save(&mut overlay)?;
            }
            overlay.commit()?;
            response
        }
        // The overlay is dropped: nothing the handler wrote reaches the store, but the audit
        // trail records a refused token or reveal.
        Err(e) => {
            drop(overlay);
            if let Some((actor, action)) = &audited {
                record_refusal(
                    config, ids, tx, env, &client, now, actor, *action, prepared, &e,
                )?;
            }
            errors::to_response(&e)
        }
    };
    if let Some(fresh) = claim {
        fresh.record(&response, now, host_now, tx)?;
    }
    Ok(response)
}

/// Appends the audit record of a refused token or reveal straight to `tx`: the request's own writes
/// (if any) were dropped, the record of the refusal is kept.
#[allow(clippy::too_many_arguments)]
fn record_refusal(
    config: &Config,
    ids: &IdGen,
    tx: &mut dyn Tx,
    env: &dyn Env,
    client: &str,
    now: Timestamp,
    actor: &Actor,
    action: AuditAction,
    prepared: &Prepared,
    error: &ApiError,
) -> ApiResult<()> {
    let stored_ids = if config.stored_ids {
        Some(IdGen::load(tx, env)?)
    } else {
        None
    };
    let ids = stored_ids.as_ref().unwrap_or(ids);
    let mut scope = Scope {
        tx,
        client,
        now,
        ids,
        env,
    };
    audit::append(
        &mut scope,
        actor,
        action,
        Err(error.code()),
        Some(&prepared.id),
        None,
    )?;
    if let Some(ids) = &stored_ids {
        ids.save(tx)?;
    }
    Ok(())
}
