//! The request pipeline every route runs through: route match (done once, by the caller), then
//! authentication, idempotency, the write overlay, the handler, and a commit only when the handler
//! returned `Ok`.

use super::handlers::Call;
use super::routes::{Access, Auth, Prepared};
use super::{Method, Request, Response, auth, errors, idempotency};
use crate::callout::CallOut;
use crate::config::Config;
use crate::domain::audit::{self, Actor, AuditAction};
use crate::domain::{IdGen, Scope};
use crate::env::Env;
use crate::env::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::storage::{Overlay, Tx};

pub fn handle(
    config: &Config,
    ids: &IdGen,
    prepared: &Prepared,
    req: &Request,
    tx: &mut dyn Tx,
    env: &dyn Env,
) -> Response {
    run(config, ids, prepared, req, tx, env).unwrap_or_else(|e| errors::to_response(&e))
}

/// Runs the body check of a write route (`Route::check`) on a read-only `tx`, for a request that
/// passed `Service::precheck` as `client`: `Err` is the answer `handle` would give.
pub fn check_body(
    config: &Config,
    ids: &IdGen,
    prepared: &Prepared,
    client: &str,
    req: &Request,
    tx: &mut dyn Tx,
    env: &dyn Env,
) -> ApiResult<()> {
    let route = prepared.route()?;
    let Some(check) = route.check else {
        return Ok(());
    };
    let now = crate::domain::test_clock::now(tx, client, env)?;
    // A replayed or conflicting key is answered by `handle` before the body is looked at.
    if req.method == Method::Post && idempotency::decides(req, client, now, tx)? {
        return Ok(());
    }
    let mut call = Call {
        req,
        route: prepared,
        config,
        key: None,
        scope: Scope {
            tx,
            client,
            now,
            ids,
            env,
        },
    };
    check(&mut call)
}

/// Runs a route's ask (`Route::ask`) on a read-only `tx` for a request that passed
/// `Service::precheck` as `client`: the call-out the host should perform before the write, or None
/// (the route asks nothing, the request is refused or replayed anyway, or there is nothing to ask).
/// Whatever the ask writes stays in an overlay that is dropped.
pub fn ask(
    config: &Config,
    ids: &IdGen,
    prepared: &Prepared,
    client: &str,
    req: &Request,
    tx: &mut dyn Tx,
    env: &dyn Env,
) -> ApiResult<Option<CallOut>> {
    let route = prepared.route()?;
    let Some(ask) = route.ask else {
        return Ok(None);
    };
    let now = crate::domain::test_clock::now(tx, client, env)?;
    // A replay answers from its record, and a conflicting key is refused: neither asks.
    if req.method == Method::Post && idempotency::decides(req, client, now, tx)? {
        return Ok(None);
    }
    if let Some(check) = route.check {
        let mut call = Call {
            req,
            route: prepared,
            config,
            key: None,
            scope: Scope {
                tx,
                client,
                now,
                ids,
                env,
            },
        };
        check(&mut call)?;
    }
    let mut overlay = Overlay::new(tx);
    let mut call = Call {
        req,
        route: prepared,
        config,
        // The ask runs after `Service::precheck` authorized the key; nothing in it reads the key.
        key: None,
        scope: Scope {
            tx: &mut overlay,
            client,
            now,
            ids,
            env,
        },
    };
    ask(&mut call)
}

fn run(
    config: &Config,
    ids: &IdGen,
    prepared: &Prepared,
    req: &Request,
    tx: &mut dyn Tx,
    env: &dyn Env,
) -> ApiResult<Response> {
    let route = prepared.route()?;
    let key = match route.auth {
        Auth::Key => Some(auth::authenticate(req, &config.api_keys, tx)?),
        Auth::Public => None,
    };
    let client = key.as_ref().map(|k| k.client.clone()).unwrap_or_default();
    // The client's clock (the host's plus its test-clock offset): every rule reads this instant.
    let host_now = env.now();
    let now = match route.auth {
        Auth::Key => host_now.plus_seconds(crate::domain::test_clock::offset(tx, &client)?),
        Auth::Public => host_now,
    };
    let audited = match (&key, prepared.audit_action()) {
        (Some(key), Some(action)) => Some((auth::actor(req, key), action)),
        _ => None,
    };
    if let Some(key) = &key
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

    let mut overlay = Overlay::new(tx);
    let stored_ids = if config.stored_ids {
        Some(IdGen::load(&mut overlay, env)?)
    } else {
        None
    };
    let ids = stored_ids.as_ref().unwrap_or(ids);
    let counter_before = ids.counter();
    let result = {
        let mut call = Call {
            req,
            route: prepared,
            config,
            key: key.as_ref(),
            scope: Scope {
                tx: &mut overlay,
                client: &client,
                now,
                ids,
                env,
            },
        };
        (route.handler)(&mut call)
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
